import { describe, expect, it } from 'vitest';
import { alertDot, alertTypeLabel } from '../alerts/index.ts';
import { formatDuration, periodText } from './format.ts';
import { reportFileName } from './download.ts';
import { periodLabel } from './pages/ReportsPage.tsx';

describe('report formatters', () => {
  it('names files after customer, period and date', () => {
    expect(reportFileName('Acme Logistics', 'This Week', '2026-11-22', 'csv')).toBe('acme-logistics-this-week-2026-11-22.csv');
    expect(reportFileName('Ünïcode / Co.', 'This Year', '2026-11-22', 'pdf')).toBe('n-code-co-this-year-2026-11-22.pdf');
    expect(reportFileName('', '', '', 'pdf')).toBe('report.pdf');
  });
  it('labels periods', () => {
    expect([0, 1, 2, 3, 9].map(periodLabel)).toEqual(['This Week', 'This Month', 'This Quarter', 'This Year', 'Unknown']);
  });
  it('writes offline time', () => {
    // The same figures as the server's report-pdf.test.ts / report-csv.test.ts: one format everywhere.
    expect(formatDuration(45 * 60)).toBe('45m');
    expect(formatDuration(3 * 3600 + 12 * 60)).toBe('3h 12m');
    expect(formatDuration(5 * 86400 + 20 * 3600 + 54 * 60)).toBe('5d 20h 54m');
  });
  it('names the period by its local dates in the tenant zone, the zone named', () => {
    // This month in Chicago, read at 21:10 local on the 25th (03:10 UTC on the 26th).
    const period = { from: '2026-11-01T05:00:00.000Z', to: '2026-11-26T03:10:00.000Z', timezone: 'America/Chicago' };
    expect(periodText(period)).toBe('2026-11-01 to 2026-11-25 (America/Chicago)');
    expect(periodText({ ...period, timezone: 'UTC', from: '2026-11-01T00:00:00.000Z' })).toBe('2026-11-01 to 2026-11-26 (UTC)');
  });
});

describe('alert status', () => {
  it('maps 0 green, 1 warning, 2 error, each with a word', () => {
    expect([0, 1, 2, 7].map(alertDot)).toEqual([
      { dot: 'online', word: 'Resolved' },
      { dot: 'warning', word: 'Open' },
      { dot: 'offline', word: 'Critical' },
      { dot: 'unknown', word: 'Unknown' },
    ]);
    expect(alertTypeLabel(0)).toBe('Device Offline');
    expect(alertTypeLabel(1)).toBe('License Renewal Pending (90 Days)');
  });
});
