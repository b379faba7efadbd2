import { REPORT_PERIODS } from '@vigil/contracts';

/**
 * Report periods (docs/decisions.md 33): this week / month / quarter / year, calendar-aligned in
 * the tenant's IANA time zone, from the period's first local midnight to now. Weeks are ISO
 * weeks (Monday first). Pure functions over Intl, so DST changes are handled by the platform.
 */

export interface ReportPeriod {
  code: number;
  label: string;
  from: Date;
  to: Date;
  timezone: string;
}

interface LocalDate {
  year: number;
  month: number; // 1..12
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** Whether the runtime knows the time zone (a bad tenant setting falls back to UTC). */
export function isValidTimezone(timezone: string): boolean {
  try {
    formatter(timezone);
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock fields of an instant in a time zone. */
function wallClock(at: Date, timezone: string) {
  const parts = Object.fromEntries(
    formatter(timezone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { year: +parts.year, month: +parts.month, day: +parts.day, hour: +parts.hour, minute: +parts.minute, second: +parts.second };
}

/** Offset of the zone at an instant, in ms (local wall time minus UTC). */
function offsetMs(at: Date, timezone: string): number {
  const w = wallClock(at, timezone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of local midnight starting a date in the zone. */
export function localMidnight(date: LocalDate, timezone: string): Date {
  const guess = Date.UTC(date.year, date.month - 1, date.day);
  const first = guess - offsetMs(new Date(guess), timezone);
  const second = guess - offsetMs(new Date(first), timezone);
  return new Date(second);
}

/** The local calendar date of an instant in the zone. */
export function localDate(at: Date, timezone: string): LocalDate {
  const w = wallClock(at, timezone);
  return { year: w.year, month: w.month, day: w.day };
}

/** The first local date of the period containing `today`. */
function periodStartDate(code: number, today: LocalDate): LocalDate {
  switch (code) {
    case 0: {
      // ISO week: Monday is day 1; getUTCDay() is 0 for Sunday.
      const weekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
      const back = (weekday + 6) % 7;
      const monday = new Date(Date.UTC(today.year, today.month - 1, today.day - back));
      return { year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() };
    }
    case 1:
      return { year: today.year, month: today.month, day: 1 };
    case 2:
      return { year: today.year, month: Math.floor((today.month - 1) / 3) * 3 + 1, day: 1 };
    case 3:
      return { year: today.year, month: 1, day: 1 };
    default:
      throw new Error(`unknown report period ${code}`);
  }
}

/** The period `code` (0..3) as it stands at `now` in `timezone`. */
export function reportPeriod(code: number, now: Date, timezone: string): ReportPeriod {
  const tz = isValidTimezone(timezone) ? timezone : 'UTC';
  const from = localMidnight(periodStartDate(code, localDate(now, tz)), tz);
  return { code, label: REPORT_PERIODS[code] ?? 'Unknown', from, to: now, timezone: tz };
}

/** `YYYY-MM-DD` of an instant in the zone (for labels and file names). */
export function formatLocalDate(at: Date, timezone: string): string {
  const d = localDate(at, timezone);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/**
 * "2026-11-01 to 2026-11-25 (America/Chicago)": the period's first and last local date in its zone,
 * the zone named. The web page, the CSV and the PDF all write it so (the web's twin:
 * apps/web/src/features/reports/format.ts, tested with the same figures).
 */
export function periodText(period: { from: string | Date; to: string | Date; timezone: string }): string {
  const tz = period.timezone;
  return `${formatLocalDate(new Date(period.from), tz)} to ${formatLocalDate(new Date(period.to), tz)} (${tz})`;
}

/** Offline time as "5d 20h 54m", "3h 12m" or "45m" (rounded to the minute), on the web page, in the CSV and the PDF. */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return d > 0 ? `${d}d ${h}h ${m}m` : h > 0 ? `${h}h ${m}m` : `${m}m`;
}

/**
 * The reliability section's line about maintenance (PDF; the CSV writes the seconds and this
 * duration): "Maintenance excluded: 1h 5m", or null when no maintenance window covered the
 * portal's devices in the period, so reports without maintenance read as before.
 */
export function maintenanceText(seconds: number): string | null {
  return seconds > 0 ? `Maintenance excluded: ${formatDuration(seconds)}` : null;
}
