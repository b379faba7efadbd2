import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import {
  condsOf,
  edgeAndChange,
  edgePeriods,
  rolledHourParts,
  SCORE_OF_PARTS,
  type Conds,
  type RolledUntil,
  type RollupWindow,
} from './rollup-query.repository.ts';
import {
  markCheckJson,
  markCheckOf,
  markPatch,
  markSinceCte,
  markStands,
  type MarkCheck,
  type MarkRead,
  type NextMark,
} from './mark.repository.ts';

/**
 * Marks of the current hour (docs/uptime-rollup.md "Marks of the current hour"): what a tenant's
 * periods add after its last rolled hour H, read up to a recent instant P and kept, so that a
 * later read walks only the periods since P instead of every period since H.
 *
 * With PP(D, x) the periods' part of G(D, x) (rollup-query.repository.ts edgePeriods) and Δn(D, x)
 * the change of the periods in progress from D to x (inProgressChange), for any P in [H, x]:
 *
 *   PP(H, x) = PP(H, P) + Δn(H, P) * (x - P) + PP(P, x)
 *   Δn(H, x) = Δn(H, P) + Δn(P, x)
 *
 * so a mark holds PP(H, P) and Δn(H, P), online and observed. Neither depends on the hour rows
 * (their counts at H are read with each window), only on the periods and removals dated up to P:
 * the mark stands while none of those has changed since it was read (mark.repository.ts).
 */
/** A mark whose base is the rolled hour H (the tenant's hours_rolled_until when it was read). */
export interface HourMark extends MarkCheck {
  /** PP(H, P), online and observed microseconds (exact numerics, as text). */
  onUs: string;
  obsUs: string;
  /** Δn(H, P): online and observed periods in progress at P minus those at H. */
  onN: string;
  obsN: string;
}

/** The empty mark at H itself: PP(H, H) = 0, Δn(H, H) = 0; what a mark is read from when there is none. */
export function markAtHour(hour: Date): HourFrom {
  return { base: hour.getTime(), at: hour.getTime(), onUs: '0', obsUs: '0', onN: '0', obsN: '0' };
}

/** What the sums of a mark are read from: a kept mark, or markAtHour. */
export type HourFrom = Omit<HourMark, keyof MarkCheck> & Pick<HourMark, 'base' | 'at'>;

/**
 * The body of a CTE `nm` (on_us, obs_us, on_n, obs_n): the sums of the mark at `at` read from `from`
 * (at or after its instant) in one walk of the periods between, or `from`'s own when `at` is its instant;
 * `walked`: how many periods that walk read. A kept mark's own sums take in what the periods of the
 * tenant written since it change in them (mark.repository.ts markPatch: the statement defines CTE `ms`).
 */
export function markSums(c: Conds, from: HourFrom | HourMark, at: Date): SQL {
  const own = sql`select ${from.onUs}::numeric as on_us, ${from.obsUs}::numeric as obs_us, ${from.onN}::numeric as on_n,
                         ${from.obsN}::numeric as obs_n`;
  const sums =
    'fromId' in from
      ? sql`select sum(on_us) as on_us, sum(obs_us) as obs_us, sum(on_n) as on_n, sum(obs_n) as obs_n
              from (${own} union all select x.on_us, x.obs_us, x.on_n, x.obs_n from (${markPatch(from)}) x) f`
      : own;
  if (at.getTime() === from.at) return sql`select f.on_us, f.obs_us, f.on_n, f.obs_n, 0 as walked from (${sums}) f`;
  const spanUs = (at.getTime() - from.at) * 1000;
  return sql`
    select sum(on_us) as on_us, sum(obs_us) as obs_us, sum(on_n) as on_n, sum(obs_n) as obs_n, sum(w) as walked
      from (select f.on_us + f.on_n * ${spanUs}::numeric as on_us, f.obs_us + f.obs_n * ${spanUs}::numeric as obs_us,
                   f.on_n, f.obs_n, 0 as w
              from (${sums}) f
            union all
            select e.on_us, e.obs_us, e.on_n, e.obs_n, 1 from (${edgeAndChange(c, new Date(from.at), at)}) e) x`;
}

/** Rows (portal_id, on_us, obs_us) summing to PP(H, x) from the sums of CTE `nm`, a mark at `at` (x at or after it). */
export function periodsSinceSums(c: Conds, at: Date, x: Date): SQL {
  const spanUs = (x.getTime() - at.getTime()) * 1000;
  return sql`
    select null::int as portal_id, nm.on_us + nm.on_n * ${spanUs}::numeric as on_us, nm.obs_us + nm.obs_n * ${spanUs}::numeric as obs_us from nm
    union all ${edgePeriods(c, at, x, 1)}`;
}

/** SQL json: the mark at `next.at` whose sums are CTE `nm`, read from `from`; its fields as HourMark's, numbers as text. */
export function markJson(tenantId: number, from: HourFrom | HourMark, next: NextMark): SQL {
  const at = next.at.getTime();
  const check = markCheckJson(tenantId, from.base, at, 'fromId' in from ? from : undefined, next.anchors);
  return sql`(select json_build_object(
                'base', ${from.base}::bigint, 'at', ${at}::bigint, 'onUs', nm.on_us::text, 'obsUs', nm.obs_us::text,
                'onN', nm.on_n::text, 'obsN', nm.obs_n::text, 'walked', nm.walked, 'check', ${check})
                from nm)`;
}

type HourMarkJson = Record<'base' | 'at' | 'onUs' | 'obsUs' | 'onN' | 'obsN' | 'walked', string | number> & {
  check: Parameters<typeof markCheckOf>[0];
};

/** Reads a mark's json (markJson). */
export function markOf(json: HourMarkJson | null): MarkRead<HourMark> | undefined {
  if (!json) return undefined;
  return {
    base: Number(json.base),
    at: Number(json.at),
    onUs: String(json.onUs),
    obsUs: String(json.obsUs),
    onN: String(json.onN),
    obsN: String(json.obsN),
    walked: Number(json.walked),
    ...markCheckOf(json.check),
  };
}

export interface MarkedScore {
  /** Whether the mark used still stood; when not, `value` means nothing. */
  stands: boolean;
  /** The score. */
  value: number;
  /** The mark at the instant asked for, read from the one used (when it stood). */
  next?: MarkRead<HourMark>;
}

/**
 * The tenant-wide score over `win` (rollup-query.repository.ts rolledScoreTotal) with the periods
 * since the rolled hour read from `mark` (none: from the hour itself, as rolledScoreTotal does),
 * and the mark at `nextMark.at` from the same one (the score then read from that). One statement, so one snapshot: the check of the
 * mark, the score and the next mark see the same periods. `win.to` must be at or after the rolled
 * hour, and at or after the mark's instant.
 */
export async function scoreTotalFromMark(
  executor: Executor,
  win: RollupWindow & { tenantId: number },
  until: RolledUntil,
  mark: HourMark | undefined,
  nextMark: NextMark | undefined,
): Promise<MarkedScore> {
  const c = condsOf({ ...win, portalIds: undefined });
  const from = mark ?? markAtHour(until.hour);
  // With a next mark, the score is read from it: one walk up to its instant, and a short one after.
  const at = nextMark?.at ?? new Date(from.at);
  // Gates: a branch under a false one-time filter is never run, so a mark that no longer stands costs its check alone.
  const stands = sql`(select ok from stands)`;
  const toPeriods = sql`select * from (${periodsSinceSums(c, at, win.to)}) m where ${stands}`;
  const next = nextMark ? sql`case when ${stands} then ${markJson(win.tenantId, from, nextMark)} end` : sql`null::json`;
  const [row] = await queryRows<{ ok: boolean; score: number | string; next: Parameters<typeof markOf>[0] }>(
    executor,
    sql`with ${mark ? sql`${markSinceCte(win.tenantId, mark)},` : sql``}
             stands as (select ${mark ? markStands(win.tenantId, mark) : sql`true`} as ok),
             nm as (${markSums(c, from, at)})
        select ${stands} as ok, ${SCORE_OF_PARTS} as score, ${next} as next
          from (${rolledHourParts(win, until.hour, toPeriods)}) parts`,
  );
  return { stands: row.ok, value: Number(row.score), next: markOf(row.next) };
}
