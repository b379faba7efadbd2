/**
 * Wall-clock times in a named time zone, for the maintenance dialog and list (docs/web-pages.md
 * "Maintenance windows"): a window is shown and entered in the tenant's zone (`tenants.timezone`), the
 * zone the server repeats recurring windows in, whatever zone the browser is in. Built on Intl, like the
 * report's local dates (features/reports/format.ts), so no time-zone library is loaded.
 */

/** The value format of `<input type="datetime-local">`: `YYYY-MM-DDTHH:mm`. */
export const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The browser's own zone: the fallback for a user who may not read the tenant's settings. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(ms: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const p = Object.fromEntries(
    partsFormatter(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return { y: Number(p.year), mo: Number(p.month), d: Number(p.day), h: Number(p.hour) % 24, mi: Number(p.minute), s: Number(p.second) };
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the zone's wall clock in the datetime-local format (`''` for an invalid instant). */
export function toZonedInput(iso: string | number, timeZone: string): string {
  const ms = typeof iso === 'number' ? iso : Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const w = wallClock(ms, timeZone);
  return `${w.y}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}`;
}

/**
 * The instant (ISO 8601, UTC) at which the zone's clock reads `value` (datetime-local format), or
 * undefined when `value` is not such a time. A time skipped by a spring-forward change does not exist
 * on that day: it is read with the offset before the change, which lands after the gap (02:30 in New
 * York on its spring-forward day is 03:30 EDT). A time repeated in the autumn is its first occurrence.
 */
export function fromZonedInput(value: string, timeZone: string): string | undefined {
  const m = LOCAL_INPUT.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  // Try both offsets around the wall time: the earlier matching instant is the first occurrence.
  const before = offsetAt(wall - 86_400_000, timeZone);
  const after = offsetAt(wall + 86_400_000, timeZone);
  const candidates = [...new Set([before, after])].map((off) => wall - off).sort((a, b) => a - b);
  const exact = candidates.find((t) => toZonedInput(t, timeZone) === value);
  return new Date(exact ?? wall - before).toISOString();
}

/** An instant as `M/D/YY h:mm AM` in the zone (the app's date-time format, docs/web.md), or '-'. */
export function formatInZone(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '-';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '-';
  const w = wallClock(ms, timeZone);
  const h12 = w.h % 12 === 0 ? 12 : w.h % 12;
  return `${w.mo}/${w.d}/${pad(w.y % 100)} ${h12}:${pad(w.mi)} ${w.h < 12 ? 'AM' : 'PM'}`;
}
