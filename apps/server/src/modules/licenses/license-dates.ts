/**
 * License calendar arithmetic on YYYY-MM-DD strings (no time zone involved).
 * endDate = startDate + terms years; a Feb 29 start ends on Feb 28 when the end
 * year is not a leap year (the day is clamped to the month's last day).
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function licenseEndDate(startDate: string, terms: number): string {
  const [y, m, d] = startDate.split('-').map(Number) as [number, number, number];
  const year = y + terms;
  const daysInMonth = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(m)}-${pad(Math.min(d, daysInMonth))}`;
}

/** Today's date in a time zone, as YYYY-MM-DD. */
export function dateIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
