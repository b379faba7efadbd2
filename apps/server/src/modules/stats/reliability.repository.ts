import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { keptScoresByPortal, keptScoresWithRows, type KeptScores } from './kept-window-query.repository.ts';
import { scoreTotalFromMark, type HourMark } from './hour-mark.repository.ts';
import type { KeptBases } from './kept-bases.ts';
import type { KeptMark } from './kept-mark.repository.ts';
import { readWithMarks, type Marks } from './read-marks.ts';
import { rolledScoresByPortal, rolledScoreTotal, rolledUntil } from './rollup-query.repository.ts';
import { OFFLINE, ONLINE } from '../../db/codes.ts';
import { MAINTENANCE, observed } from './observed.repository.ts';

/**
 * Reliability (docs/decisions.md 27): online device-seconds / observed device-seconds x 100 over a
 * window, one decimal (half up), -1 when nothing was observed.
 *
 * Everything is computed from `device_status_periods`: each period is clipped to the window,
 * an open period ends at `to`, and a removed device's periods end at its removal. Late reports
 * never enter periods, so they never change these numbers. One aggregate per call, no loops.
 *
 * The portal and tenant scores read the uptime rollup once the job has built it (rollup-query.repository.ts:
 * rolled UTC days plus exact edges, the same numbers); portal scores over the 30 days ending now
 * read the kept window instead (kept-window-query.repository.ts: one row per portal plus minutes of edges,
 * the same numbers again). `...Live` compute from raw periods only, the reference both are
 * tested against, and the path before the first rollup run.
 */

export interface ReliabilityWindow {
  /** Omit for all tenants (superAdmin / platform work); RLS still applies through the executor. */
  tenantId?: number;
  from: Date;
  to: Date;
}

/**
 * Clipped periods restricted by `which` on `p`: `observed('p')` (and more) for the scores, so
 * maintenance (status 2) counts neither as online nor as observed (observed.repository.ts).
 */
function clippedPeriods(win: ReliabilityWindow, which: SQL): SQL {
  const tenantCond = win.tenantId === undefined ? sql`true` : sql`p.tenant_id = ${win.tenantId}`;
  const from = win.from.toISOString();
  const to = win.to.toISOString();
  return sql`
    select p.tenant_id, p.portal_id, p.device_id, p.status,
           greatest(p.started_at, ${from}::timestamptz) as s,
           least(coalesce(p.ended_at, ${to}::timestamptz), ${to}::timestamptz,
                 coalesce(d.removed_at, 'infinity'::timestamptz)) as e
      from device_status_periods p
      join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id
     where ${tenantCond}
       and p.started_at < ${to}::timestamptz
       and (p.ended_at is null or p.ended_at > ${from}::timestamptz)
       and ${which}`;
}

/** SQL expression: the score from summed online/observed seconds (numeric round is half away from zero). */
const SCORE = sql`case when sum(extract(epoch from (e - s))) > 0
  then round(100 * sum(case when status = ${ONLINE} then extract(epoch from (e - s)) else 0 end)::numeric
             / sum(extract(epoch from (e - s)))::numeric, 1)::float8
  else -1 end`;

/**
 * Score per portal over [from, to]. Every id in `portalIds` gets an entry (-1 when nothing was
 * observed); without `portalIds`, only portals with observed time appear, so read with `?? -1`.
 */
export async function reliabilityByPortal(
  executor: Executor,
  opts: ReliabilityWindow & { portalIds?: number[] },
  marks?: Marks<KeptMark>,
  bases?: KeptBases,
): Promise<Map<number, number>> {
  if (opts.portalIds && opts.portalIds.length === 0) return new Map();
  const kept = opts.from < opts.to ? await keptScoresByPortal(executor, opts, marks, bases) : null;
  return kept ? settled(executor, opts, kept) : reliabilityFromRollup(executor, opts);
}

/**
 * A page of rows of one tenant's portals (`rows`: a select of the portals' `id` and their `page_order`
 * in the page) and the portals' scores as reliabilityByPortal gives them. Where the tenant's kept base
 * as last read answers (PostgreSQL: kept-bases.ts), both in one statement (kept-window-query.repository.ts
 * keptScoresWithRows); otherwise, or when that base has moved, the rows and then their scores.
 */
export async function reliabilityWithRows<R extends { id: number }>(
  executor: Executor,
  win: ReliabilityWindow & { tenantId: number },
  rows: SQL,
  marks?: Marks<KeptMark>,
  bases?: KeptBases,
): Promise<{ rows: R[]; scores: Map<number, number> }> {
  if (marks || !bases || !(win.from < win.to)) {
    const page = await queryRows<R>(executor, rows);
    return { rows: page, scores: await reliabilityByPortal(executor, { ...win, portalIds: page.map((r) => r.id) }, marks, bases) };
  }
  const { rows: page, kept } = await keptScoresWithRows<R>(executor, win, rows, bases);
  const opts = { ...win, portalIds: page.map((r) => r.id) };
  return { rows: page, scores: kept ? await settled(executor, opts, kept) : await reliabilityByPortal(executor, opts, marks, bases) };
}

/** The kept scores, with the unsettled portals scored another way; every asked-for id gets an entry. */
async function settled(
  executor: Executor,
  opts: ReliabilityWindow & { portalIds?: number[] },
  kept: KeptScores,
): Promise<Map<number, number>> {
  if (kept.unsettled.length === 0) return withMissing(kept.scores, opts.portalIds);
  // Portals with a period written since the base but starting before it. The rollup has them right
  // when they start after its last complete day; an earlier start waits for its next run: live.
  const until = await rolledUntil(executor, opts.tenantId);
  const rolled = kept.unsettled.filter((u) => until && u.since > until.day).map((u) => u.portalId);
  const live = kept.unsettled.map((u) => u.portalId).filter((id) => !rolled.includes(id));
  const rest = new Map<number, number>();
  for (const row of rolled.length && until ? await rolledScoresByPortal(executor, { ...opts, portalIds: rolled }, until) : [])
    rest.set(row.portal_id, row.score);
  for (const [id, score] of live.length ? await reliabilityByPortalLive(executor, { ...opts, portalIds: live }) : []) rest.set(id, score);
  for (const [id, score] of rest) if (score !== -1) kept.scores.set(id, score);
  return withMissing(kept.scores, opts.portalIds);
}

/** Every asked-for id gets an entry (-1 when nothing was observed), in the order asked. */
function withMissing(scores: Map<number, number>, portalIds: number[] | undefined): Map<number, number> {
  if (!portalIds) return scores;
  return new Map(portalIds.map((id) => [id, scores.get(id) ?? -1]));
}

/** `reliabilityByPortal` from the uptime rollup (rolled days plus exact edges), or live before the first rollup run. */
async function reliabilityFromRollup(executor: Executor, opts: ReliabilityWindow & { portalIds?: number[] }): Promise<Map<number, number>> {
  const until = opts.from < opts.to ? await rolledUntil(executor, opts.tenantId) : null;
  if (!until) return reliabilityByPortalLive(executor, opts);
  const result = new Map<number, number>();
  for (const id of opts.portalIds ?? []) result.set(id, -1);
  for (const row of await rolledScoresByPortal(executor, opts, until)) result.set(row.portal_id, row.score);
  return result;
}

/**
 * The tenant-wide score (the company's avgReliabilityScore): the same ratio over all its devices.
 * With `marks` (hour-mark.repository.ts), a window ending after the rolled hour reads
 * the periods since a kept mark of that hour instead of all of them, and leaves a newer mark.
 */
export async function reliabilityOfTenant(executor: Executor, opts: ReliabilityWindow, marks?: Marks<HourMark>): Promise<number> {
  const until = opts.from < opts.to ? await rolledUntil(executor, opts.tenantId) : null;
  if (!until) return reliabilityOfTenantLive(executor, opts);
  const { tenantId } = opts;
  if (!marks || tenantId === undefined || opts.to < until.hour) return rolledScoreTotal(executor, opts, until);
  const win = { ...opts, tenantId };
  return readWithMarks(marks, tenantId, until.hour, opts.to, (mark, next) => scoreTotalFromMark(executor, win, until, mark, next));
}

/** `reliabilityByPortal` computed from raw periods only (one aggregate over every period in the window). */
export async function reliabilityByPortalLive(
  executor: Executor,
  opts: ReliabilityWindow & { portalIds?: number[] },
): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (opts.portalIds && opts.portalIds.length === 0) return result;
  const portalCond = opts.portalIds
    ? sql`${observed('p')} and p.portal_id = any(${`{${opts.portalIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`
    : observed('p');
  const rows = await queryRows<{ portal_id: number; score: number | string }>(
    executor,
    sql`select portal_id, ${SCORE} as score
          from (${clippedPeriods(opts, portalCond)}) c
         where e > s
         group by portal_id`,
  );
  for (const id of opts.portalIds ?? []) result.set(id, -1);
  for (const row of rows) result.set(Number(row.portal_id), Number(row.score));
  return result;
}

/** `reliabilityOfTenant` computed from raw periods only. */
export async function reliabilityOfTenantLive(executor: Executor, opts: ReliabilityWindow): Promise<number> {
  const rows = await queryRows<{ score: number | string }>(
    executor,
    sql`select ${SCORE} as score from (${clippedPeriods(opts, observed('p'))}) c where e > s`,
  );
  return rows.length ? Number(rows[0].score) : -1;
}

/** One calendar day (tenant time zone, `YYYY-MM-DD`) and its time-weighted online share (-1: nothing observed). */
export interface DailyOnlineShare {
  date: string;
  onlineShare: number;
}

/**
 * Online share per calendar day of `timezone` for one portal, days covering [from, to).
 * Each clipped period is split at local midnights (generate_series over days) and summed per day.
 */
export async function dailyOnlineShare(
  executor: Executor,
  opts: { tenantId: number; portalId: number; from: Date; to: Date; timezone: string },
): Promise<DailyOnlineShare[]> {
  const tz = opts.timezone;
  const rows = await queryRows<{ day: string; score: number | string }>(
    executor,
    sql`with days as (
          select d::date as day,
                 greatest((d::date)::timestamp at time zone ${tz}, ${opts.from.toISOString()}::timestamptz) as ds,
                 least(((d::date) + 1)::timestamp at time zone ${tz}, ${opts.to.toISOString()}::timestamptz) as de
            from generate_series((${opts.from.toISOString()}::timestamptz at time zone ${tz})::date::timestamp,
                                 ((${opts.to.toISOString()}::timestamptz - interval '1 microsecond') at time zone ${tz})::date::timestamp,
                                 interval '1 day') d
        ), parts as (
          select days.day, c.status, greatest(c.s, days.ds) as s, least(c.e, days.de) as e
            from days
            join (${clippedPeriods(opts, sql`${observed('p')} and p.portal_id = ${opts.portalId}`)}) c
              on c.s < days.de and c.e > days.ds
        )
        select to_char(days.day, 'YYYY-MM-DD') as day,
               coalesce((select ${SCORE} from parts where parts.day = days.day and e > s), -1) as score
          from days
         order by days.day`,
  );
  return rows.map((r) => ({ date: r.day, onlineShare: Number(r.score) }));
}

export interface OfflineDevice {
  id: number;
  name: string;
  deviceType: number;
  offlineSeconds: number;
}

/** The devices of a portal with the most offline seconds in [from, to] (ties: lower id first). */
export async function topOfflineDevices(
  executor: Executor,
  opts: { tenantId: number; portalId: number; from: Date; to: Date; limit: number },
): Promise<OfflineDevice[]> {
  const rows = await queryRows<{ id: number; name: string; device_type: number; offline_seconds: number | string }>(
    executor,
    sql`select d.id, d.name, d.device_type, round(sum(extract(epoch from (c.e - c.s))))::float8 as offline_seconds
          from (${clippedPeriods(opts, sql`p.portal_id = ${opts.portalId} and p.status = ${OFFLINE}`)}) c
          join devices d on d.tenant_id = c.tenant_id and d.id = c.device_id
         where c.e > c.s
         group by d.id, d.name, d.device_type
         order by offline_seconds desc, d.id
         limit ${Math.max(0, Math.trunc(opts.limit))}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    deviceType: Number(r.device_type),
    offlineSeconds: Number(r.offline_seconds),
  }));
}

/**
 * Device-seconds of maintenance (status-2 periods) of a portal's devices in [from, to], clipped to
 * it and at removals like every figure here: what the maintenance windows took out of the
 * observed time (a report's `maintenanceSeconds`). Whole seconds, as `offlineSeconds`.
 */
export async function maintenanceSeconds(
  executor: Executor,
  opts: { tenantId: number; portalId: number; from: Date; to: Date },
): Promise<number> {
  const [row] = await queryRows<{ seconds: number | string | null }>(
    executor,
    sql`select round(sum(extract(epoch from (e - s))))::float8 as seconds
          from (${clippedPeriods(opts, sql`p.portal_id = ${opts.portalId} and p.status = ${MAINTENANCE}`)}) c
         where e > s`,
  );
  return row?.seconds == null ? 0 : Number(row.seconds);
}
