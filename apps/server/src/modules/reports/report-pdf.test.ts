import { describe, expect, it } from 'vitest';
import { formatDuration, printable, reportPdf } from './report-pdf.ts';

describe('report PDF helpers', () => {
  it('keeps names printable with the built-in font, untouched with an embedded Unicode font', () => {
    expect(printable('Café “Nord” – Tor 1', false)).toBe('Café “Nord” – Tor 1');
    expect(printable('Камера 监控', false)).toBe('?????? ??');
    expect(printable('Камера', true)).toBe('Камера');
  });

  it('formats offline time for people', () => {
    expect(formatDuration(59)).toBe('1m');
    expect(formatDuration(3 * 3600 + 120)).toBe('3h 2m');
    expect(formatDuration(86_400 * 2 + 3600)).toBe('2d 1h 0m');
  });

  it('renders an empty report (no sections data) as a valid PDF', async () => {
    const pdf = await reportPdf(
      {
        portal: { id: 1, name: 'Empty' },
        period: { code: 0, label: 'This Week', from: '2026-11-16T00:00:00.000Z', to: '2026-11-16T00:00:00.000Z', timezone: 'UTC' },
        generatedAt: '2026-11-16T00:00:00.000Z',
        config: [0, 1, 2],
        openCases: { byStatus: [], openAtEnd: 0, openedInPeriod: 0, completedInPeriod: 0 },
        portalPulse: { onlineCount: 0, offlineCount: 0, daily: [] },
        reliability: { score: -1, goal: 95, meetsGoal: false, topOfflineDevices: [], maintenanceSeconds: 0 },
      },
      '',
    );
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
