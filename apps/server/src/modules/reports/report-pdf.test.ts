import PDFDocument from 'pdfkit';
import type { ReportContent } from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { maintenanceText } from './periods.ts';
import { formatDuration, printable, reportPdf } from './report-pdf.ts';

const reliabilityOnly = (maintenanceSeconds: number): ReportContent => ({
  portal: { id: 1, name: 'Harbor Mall' },
  period: { code: 0, label: 'This Week', from: '2026-11-16T00:00:00.000Z', to: '2026-11-18T12:00:00.000Z', timezone: 'UTC' },
  generatedAt: '2026-11-18T12:00:00.000Z',
  config: [2],
  reliability: { score: 94.7, goal: 95, meetsGoal: false, topOfflineDevices: [], maintenanceSeconds },
});

/** The strings the PDF writes (every `text` call of pdfkit's documents while it renders). */
async function pdfTexts(content: ReportContent): Promise<string[]> {
  const spy = vi.spyOn(PDFDocument.prototype, 'text');
  try {
    const pdf = await reportPdf(content, 'Northwind');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    return spy.mock.calls.map((call) => String(call[0]));
  } finally {
    spy.mockRestore();
  }
}

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

  it('says how much maintenance the reliability score left out, in the report duration format, only when there was some', async () => {
    expect(maintenanceText(3900)).toBe('Maintenance excluded: 1h 5m');
    expect(maintenanceText(0)).toBeNull();
    const texts = await pdfTexts(reliabilityOnly(2 * 86_400 + 3 * 3600 + 600));
    expect(texts).toContain('Maintenance excluded: 2d 3h 10m');
    expect((await pdfTexts(reliabilityOnly(0))).filter((text) => text.startsWith('Maintenance'))).toEqual([]);
  });
});
