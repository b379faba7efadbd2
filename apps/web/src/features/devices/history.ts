/** Pure helpers of the device page (docs/history.md): periods clipped to a range, scores, lengths. */

export interface Period {
  /** 0 offline, 1 online, 2 maintenance. */
  status: number;
  from: string;
  to: string;
}

export const STATUS_WORD: Record<number, string> = { 0: 'Offline', 1: 'Online', 2: 'Maintenance' };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The page's ranges: the timeline shows one, the reliability row shows each. */
export const RANGES = [
  { key: '24h', label: '24 h', ms: DAY_MS },
  { key: '7d', label: '7 d', ms: 7 * DAY_MS },
  { key: '30d', label: '30 d', ms: 30 * DAY_MS },
  { key: '90d', label: '90 d', ms: 90 * DAY_MS },
] as const;
export type RangeKey = (typeof RANGES)[number]['key'];

/** The periods inside [from, to], clipped to it. */
export function clip(periods: Period[], from: number, to: number): Period[] {
  const out: Period[] = [];
  for (const p of periods) {
    const s = Math.max(Date.parse(p.from), from);
    const e = Math.min(Date.parse(p.to), to);
    if (e > s) out.push({ status: p.status, from: new Date(s).toISOString(), to: new Date(e).toISOString() });
  }
  return out;
}

/**
 * Online time / observed time x 100 over the periods, one decimal rounded half up like the server's
 * scores; maintenance is not observed time; -1 when nothing was observed.
 */
export function scoreOf(periods: Period[]): number {
  let online = 0;
  let observed = 0;
  for (const p of periods) {
    if (p.status === 2) continue;
    const ms = Date.parse(p.to) - Date.parse(p.from);
    observed += ms;
    if (p.status === 1) online += ms;
  }
  if (observed <= 0) return -1;
  return Math.round((online * 1000) / observed) / 10;
}

/** "2 d 3 h", "5 h 12 min", "4 min", "35 s": the two largest units. */
export function formatLength(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** The period holding instant `t` (ms), if any. */
export function periodAt(periods: Period[], t: number): Period | undefined {
  return periods.find((p) => Date.parse(p.from) <= t && t < Date.parse(p.to));
}

/** A score as the page shows it: "97.5%", or "No data" for -1. */
export const scoreText = (score: number) => (score < 0 ? 'No data' : `${score.toFixed(1)}%`);
