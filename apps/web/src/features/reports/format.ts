/**
 * How a report names its period and offline times, the same on the web page, in the CSV and in the
 * PDF (docs/web-pages.md "Reports"; the server's twin is apps/server/src/modules/reports/periods.ts
 * and report-pdf.ts, tested with the same figures): dates in the tenant's time zone, the zone named.
 */

/** `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** "2026-11-01 to 2026-11-25 (America/Chicago)": first and last local date of the period, and the zone. */
export function periodText(period: { from: string; to: string; timezone: string }): string {
  return `${localDate(period.from, period.timezone)} to ${localDate(period.to, period.timezone)} (${period.timezone})`;
}

/** Seconds as "5d 20h 54m", "3h 12m" or "45m" (rounded to the minute). */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return d > 0 ? `${d}d ${h}h ${m}m` : h > 0 ? `${h}h ${m}m` : `${m}m`;
}
