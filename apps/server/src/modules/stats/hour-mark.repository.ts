import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import {
  condsOf,
  edgePeriods,
  inProgressChange,
  rolledHourParts,
  SCORE_OF_PARTS,
  type Conds,
  type RolledUntil,
  type RollupWindow,
} from './rollup-query.repository.ts';
import { lastPeriodId, markStands, removalsIn, type MarkCheck } from './mark.repository.ts';

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
export function markAtHour(hour: Date): Omit<HourMark, 'lastId' | 'removals' | 'root'> {
  return { base: hour.getTime(), at: hour.getTime(), onUs: '0', obsUs: '0', onN: '0', obsN: '0' };
}

/** Rows (portal_id, on_us, obs_us) summing to PP(H, x) from a standing `mark` (x >= its instant). */
export function periodsSinceHour(c: Conds, mark: Omit<HourMark, 'lastId' | 'removals' | 'root'>, x: Date): SQL {
  const spanUs = (x.getTime() - mark.at) * 1000;
  return sql`
    select null::int as portal_id, ${mark.onUs}::numeric + ${mark.onN}::numeric * ${spanUs}::numeric as on_us,
           ${mark.obsUs}::numeric + ${mark.obsN}::numeric * ${spanUs}::numeric as obs_us
    union all ${edgePeriods(c, new Date(mark.at), x, 1)}`;
}

/**
 * SQL json: the mark at `at` read from `from` (a standing mark, or markAtHour: at least as old);
 * its fields as HourMark's, numbers as text.
 */
export function nextMark(c: Conds, tenantId: number, from: Omit<HourMark, 'lastId' | 'removals' | 'root'>, at: Date): SQL {
  const P = at.getTime();
  return sql`(select json_build_object(
                'base', ${from.base}::bigint, 'at', ${P}::bigint, 'onUs', pp.on_us::text, 'obsUs', pp.obs_us::text,
                'onN', (${from.onN}::numeric + dn.on_n)::text, 'obsN', (${from.obsN}::numeric + dn.obs_n)::text,
                'lastId', ${lastPeriodId(tenantId)},
                'removals', ${removalsIn(tenantId, from.base, P)})
                from (select coalesce(sum(on_us), 0) as on_us, coalesce(sum(obs_us), 0) as obs_us
                        from (${periodsSinceHour(c, from, at)}) x) pp,
                     (select coalesce(sum(online_n), 0) as on_n, coalesce(sum(observed_n), 0) as obs_n
                        from (${inProgressChange(c, new Date(from.at), at)}) y) dn)`;
}

/** Reads a mark's json (nextMark) as an HourMark. */
export function markOf(json: Record<Exclude<keyof HourMark, 'root'>, string | number> | null): Omit<HourMark, 'root'> | undefined {
  if (!json) return undefined;
  return {
    base: Number(json.base),
    at: Number(json.at),
    onUs: String(json.onUs),
    obsUs: String(json.obsUs),
    onN: String(json.onN),
    obsN: String(json.obsN),
    lastId: String(json.lastId),
    removals: String(json.removals),
  };
}

export interface MarkedScore {
  /** Whether the mark used still stood; when not, `value` means nothing. */
  stands: boolean;
  /** The score. */
  value: number;
  /** The mark at the instant asked for, read from the one used (when it stood). */
  next?: Omit<HourMark, 'root'>;
}

/**
 * The tenant-wide score over `win` (rollup-query.repository.ts rolledScoreTotal) with the periods
 * since the rolled hour read from `mark` (none: from the hour itself, as rolledScoreTotal does),
 * and the mark at `nextAt` from the same one. One statement, so one snapshot: the check of the
 * mark, the score and the next mark see the same periods. `win.to` must be at or after the rolled
 * hour, and at or after the mark's instant.
 */
export async function scoreTotalFromMark(
  executor: Executor,
  win: RollupWindow & { tenantId: number },
  until: RolledUntil,
  mark: HourMark | undefined,
  nextAt: Date | undefined,
): Promise<MarkedScore> {
  const c = condsOf({ ...win, portalIds: undefined });
  const from = mark ?? markAtHour(until.hour);
  // Gates: a branch under a false one-time filter is never run, so a mark that no longer stands costs its check alone.
  const stands = sql`(select ok from stands)`;
  const toPeriods = sql`select * from (${periodsSinceHour(c, from, win.to)}) m where ${stands}`;
  const next = nextAt ? sql`case when ${stands} then ${nextMark(c, win.tenantId, from, nextAt)} end` : sql`null::json`;
  const [row] = await queryRows<{ ok: boolean; score: number | string; next: Record<keyof HourMark, string | number> | null }>(
    executor,
    sql`with stands as (select ${mark ? markStands(win.tenantId, mark) : sql`true`} as ok)
        select ${stands} as ok, ${SCORE_OF_PARTS} as score, ${next} as next
          from (${rolledHourParts(win, until.hour, toPeriods)}) parts`,
  );
  return { stands: row.ok, value: Number(row.score), next: markOf(row.next) };
}
