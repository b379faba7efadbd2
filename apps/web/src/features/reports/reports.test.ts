import { describe, expect, it } from 'vitest';
import { alertDot, alertTypeLabel } from '../alerts/index.ts';
import { formatDuration } from './components/ReportView.tsx';
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
    expect(formatDuration(45 * 60)).toBe('45 min');
    expect(formatDuration(3 * 3600 + 12 * 60)).toBe('3 h 12 min');
    expect(formatDuration(2 * 86400 + 3 * 3600)).toBe('2 d 3 h');
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
