import { DEVICE_TYPES, type ReportContent } from '@vigil/contracts';
import { formatDuration, formatLocalDate, maintenanceText, periodText } from './periods.ts';

/**
 * A report as CSV (RFC 4180: CRLF lines, fields quoted when they hold a comma, quote or line
 * break, quotes doubled). Text cells that a spreadsheet would run as a formula (starting with
 * = + - @, tab or CR) are prefixed with a single quote (docs/decisions.md 39, rule 4). Numbers are
 * written as numbers: they come from the server, never from user input.
 */

type Cell = string | number;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: Cell[]) => cells.map(csvCell).join(',');

export function reportCsv(content: ReportContent, tenantName: string): string {
  const tz = content.period.timezone;
  const rows: Cell[][] = [['Section', 'Item', 'Value', 'Details']];
  rows.push(['Report', 'Company', tenantName, '']);
  rows.push(['Report', 'Customer', content.portal.name, '']);
  rows.push(['Report', 'Period', content.period.label, periodText(content.period)]);
  rows.push(['Report', 'From', formatLocalDate(new Date(content.period.from), tz), content.period.from]);
  rows.push(['Report', 'To', formatLocalDate(new Date(content.period.to), tz), content.period.to]);
  rows.push(['Report', 'Generated', content.generatedAt, '']);

  if (content.openCases) {
    for (const s of content.openCases.byStatus) rows.push(['Cases by status', s.status, s.count, '']);
    rows.push(['Cases', 'Open at period end', content.openCases.openAtEnd, '']);
    rows.push(['Cases', 'Opened in period', content.openCases.openedInPeriod, '']);
    rows.push(['Cases', 'Completed in period', content.openCases.completedInPeriod, '']);
  }
  if (content.portalPulse) {
    rows.push(['Portal pulse', 'Online devices', content.portalPulse.onlineCount, 'now']);
    rows.push(['Portal pulse', 'Offline devices', content.portalPulse.offlineCount, 'now']);
    for (const d of content.portalPulse.daily)
      rows.push(['Daily online share (%)', d.date, d.onlineShare, d.onlineShare < 0 ? 'no data' : '']);
  }
  if (content.reliability) {
    const r = content.reliability;
    rows.push(['Reliability', 'Score (%)', r.score, r.score < 0 ? 'no data' : '']);
    rows.push(['Reliability', 'Goal (%)', r.goal, r.meetsGoal ? 'met' : 'not met']);
    // Seconds as the value and the duration beside it (docs/decisions.md 47), only when a window covered the period.
    if (maintenanceText(r.maintenanceSeconds))
      rows.push([
        'Reliability',
        'Maintenance excluded',
        Math.round(r.maintenanceSeconds),
        `seconds (${formatDuration(r.maintenanceSeconds)})`,
      ]);
    for (const d of r.topOfflineDevices) {
      rows.push([
        'Most offline devices',
        d.name,
        Math.round(d.offlineSeconds),
        `${DEVICE_TYPES[d.deviceType] ?? 'Unknown'}; seconds offline (${formatDuration(d.offlineSeconds)})`,
      ]);
    }
  }
  return rows.map(csvLine).join('\r\n') + '\r\n';
}
