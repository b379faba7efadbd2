import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportContent } from '@vigil/contracts';
import ReportView from './ReportView.tsx';

const content = (maintenanceSeconds: number): ReportContent => ({
  portal: { id: 5, name: 'Harbor View Hotel' },
  period: { code: 1, label: 'This Week', from: '2026-11-23T06:00:00Z', to: '2026-11-27T12:00:00Z', timezone: 'America/Chicago' },
  generatedAt: '2026-11-27T12:00:00Z',
  config: [2],
  reliability: { score: 97.5, goal: 95, meetsGoal: true, topOfflineDevices: [], maintenanceSeconds },
});

describe('report view: maintenance', () => {
  afterEach(cleanup);

  it("names the maintenance time the score left out, in the report's duration format", () => {
    render(<ReportView content={content(2 * 86_400 + 3 * 3_600 + 15 * 60)} />);
    expect(screen.getByTestId('maintenance-excluded').textContent).toBe('Maintenance excluded: 2d 3h 15m');
  });

  it('says nothing when no window covered the devices', () => {
    render(<ReportView content={content(0)} />);
    expect(screen.queryByTestId('maintenance-excluded')).toBeNull();
    expect(screen.getByText('Meets the goal')).toBeTruthy();
  });
});
