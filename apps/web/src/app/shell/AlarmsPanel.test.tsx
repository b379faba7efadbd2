import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import AlarmsPanel, { alarmRows } from './AlarmsPanel.tsx';

afterEach(cleanup);

const row = (id: number, customerId: number, offlineCount: number, status = 1, alertType = 0) => ({
  id,
  customerId,
  customerName: `Portal ${customerId}`,
  alertType,
  offlineCount,
  status,
});

describe('Alarms dropdown', () => {
  it('shows one row per portal and type, the newest, and never a count of 0', () => {
    // Newest first, as GET /alert-stats sort createdAt DESC answers: portal 1's open alert, then its resolved ones.
    const rows = [row(9, 1, 3), row(8, 2, 0, 0), row(7, 1, 2, 0), row(6, 1, 1, 0), row(5, 1, 40, 1, 1)];
    expect(alarmRows(rows).map((r) => r.id)).toEqual([9, 8, 5]);
    const { container } = render(<AlarmsPanel rows={rows} loading={false} />);
    expect(screen.getAllByText('Portal 1')).toHaveLength(2);
    expect(screen.getAllByText('Portal 2')).toHaveLength(1);
    expect(screen.getByText('Device Offline · Open')).toBeTruthy();
    expect(screen.getByText('Device Offline · Resolved')).toBeTruthy();
    // Counts for portal 1's open alert (3) and the license alert (40); none for portal 2's empty alert.
    expect([...container.querySelectorAll('.ant-badge-count')].map((b) => b.getAttribute('title'))).toEqual(['Offline devices', 'Devices']);
  });

  it("says 'No alerts' when there are none", () => {
    render(<AlarmsPanel rows={[]} loading={false} />);
    expect(screen.getByText('No alerts')).toBeTruthy();
  });
});
