import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { KeptBase, KeptBases } from './kept-bases.ts';
import { headSinceSums, keptFromBase, keptMarkJson, keptMarkOf, keptSums, unsettledOf, type KeptMark } from './kept-mark.repository.ts';
import { markSinceCte, markStands, type NextMark } from './mark.repository.ts';
import { readWithMarks, type MarkedRead, type Marks } from './read-marks.ts';
import { KEPT_BASE_ANSWERS_MS } from './kept-window-build.repository.ts';
import {
  condsOf,
  edgePeriods,
  keptTailPeriods,
  portalInList,
  SCORE_OF_PARTS,
  type PortalIn,
  type RollupWindow,
} from './rollup-query.repository.ts';

/**
 * Portal scores over a window ending now, from the kept window (kept-window-build.repository.ts), exactly:
 *
 *   window [t - L, t] = kept window [T - L, T] + G(T, t) - G(T - L, t - L)
 *   G(D, x) = atStart(D) * (x - D) + (the periods ending or beginning in (D, x))
 *
 * with G the change of the cumulative device-time from an instant on (rollup-query.repository.ts), whose
 * counts in progress at T and at T - L are kept per portal. So a request reads one kept row per
 * portal plus the periods that start or end in the minutes since T (the head, from the history) and
 * since T - L (the tail, kept with the base: rollup-query.repository.ts keptTailPeriods); every
 * portal of a tenant is scored for about the cost of one.
 *
 * Portals whose base is stale (a period written after the base was computed but starting before
 * T) are returned in `unsettled`, for the caller to score from the rollup.
 */

/** Up to this many portal ids (a page) are conditions of the query; more are picked from the tenant's scores. */
const MAX_IDS_IN_SQL = 100;

/**
 * The kept base that answers [from, to], or null: the tenant's (or, for all tenants, every tenant's
 * and the same one) of the same length, ending at or before `to` and at most an hour before it.
 * Also turns JIT off for the caller's transaction, as rolledUntil() does (estimates above
 * jit_above_cost at size L; compiling costs more than running these queries).
 */
async function baseFor(executor: Executor, win: RollupWindow): Promise<KeptBase | null> {
  const rows = await queryRows<{
    complete: boolean | null;
    from_lo: Date | string | null;
    from_hi: Date | string | null;
    to_lo: Date | string | null;
    to_hi: Date | string | null;
    mark: number | string | null;
  }>(
    executor,
    win.tenantId === undefined
      ? sql`select set_config('jit', 'off', true) as jit, bool_and(s.tenant_id is not null) as complete,
                   min(s.window_from) as from_lo, max(s.window_from) as from_hi, min(s.window_to) as to_lo, max(s.window_to) as to_hi,
                   min(s.period_id_mark) as mark
              from tenants t left join kept_window_state s on s.tenant_id = t.id`
      : sql`select set_config('jit', 'off', true) as jit, s.tenant_id is not null as complete,
                   s.window_from as from_lo, s.window_from as from_hi, s.window_to as to_lo, s.window_to as to_hi,
                   s.period_id_mark as mark
              from (select 1) one left join kept_window_state s on s.tenant_id = ${win.tenantId}`,
  );
  const row = rows[0];
  if (!row?.complete || !row.from_lo || !row.to_lo) return null;
  const base = { from: new Date(row.from_lo), to: new Date(row.to_lo), mark: Number(row.mark) };
  const same = base.from.getTime() === new Date(row.from_hi!).getTime() && base.to.getTime() === new Date(row.to_hi!).getTime();
  return same && answers(base, win) ? base : null;
}

/** Whether `base` answers `win`: of the same length, ending at or before its end and at most KEPT_BASE_ANSWERS_MS before it. */
function answers(base: KeptBase, win: RollupWindow): boolean {
  const sinceBase = win.to.getTime() - base.to.getTime();
  const sameLength = win.to.getTime() - win.from.getTime() === base.to.getTime() - base.from.getTime();
  return sameLength && sinceBase >= 0 && sinceBase <= KEPT_BASE_ANSWERS_MS;
}

/** SQL: whether `base` is still the tenant's kept window (the job has not kept a newer one). */
function baseStands(tenantId: number, base: KeptBase): SQL {
  return sql`exists (select 1 from kept_window_state s
                      where s.tenant_id = ${tenantId} and s.window_from = ${base.from.toISOString()}::timestamptz
                        and s.window_to = ${base.to.toISOString()}::timestamptz and s.period_id_mark = ${base.mark}::bigint)`;
}

export interface KeptScores {
  /** Score per portal with observed time (read with `?? -1`), except the unsettled ones. */
  scores: Map<number, number>;
  /** Portals (among those asked for) whose base misses a back-dated period, with the earliest start of those periods: score them another way. */
  unsettled: { portalId: number; since: Date }[];
}

/**
 * Scores from the kept window, or null when no kept base answers this window. With `marks` (PGlite
 * only: kept-mark.repository.ts), one tenant's head is read from a kept mark of its base when one
 * stands, and a newer mark is left. Otherwise, with `bases` (kept-bases.ts; for reads, whose
 * settings turn JIT off on PostgreSQL as baseFor does), one tenant's scores are read from its base
 * as last read, checked in the same statement, and the base is read first only when it no longer stands.
 */
export async function keptScoresByPortal(
  executor: Executor,
  win: RollupWindow,
  marks?: Marks<KeptMark>,
  bases?: KeptBases,
): Promise<KeptScores | null> {
  const { tenantId } = win;
  const cache = !marks && tenantId !== undefined ? bases : undefined;
  const cached = cache?.get(tenantId!);
  if (cached && answers(cached, win)) {
    const got = await keptRead(executor, win, cached, { checkBase: true });
    if (got.stands) return got.value;
  }
  const base = await baseFor(executor, win);
  if (base) cache?.keep(tenantId!, base);
  else cache?.drop(tenantId!);
  if (!base) return null;
  if (!marks || tenantId === undefined) return (await keptRead(executor, win, base)).value;
  return readWithMarks(marks, tenantId, base.to, win.to, (mark, next) => keptRead(executor, { ...win, tenantId }, base, { mark, next }));
}

/**
 * The scores' statement as parts: `ctes` (stands, nm, scores, unsettled) and the expressions `stands` and
 * `next`. `portalIn`, the condition of the portals asked for, or undefined for every portal of the window.
 */
function keptParts(
  win: RollupWindow,
  base: KeptBase,
  portalIn: PortalIn | undefined,
  marked: { mark?: KeptMark; next?: NextMark; checkBase?: boolean; idList?: number[] },
): { ctes: SQL; stands: SQL; next: SQL } {
  const { mark, next: nextMark, checkBase } = marked;
  const c = condsOf({ ...win, portalIds: undefined }, portalIn);
  // `+ 0`: the few periods above the mark come from the primary key; with a portal index the planner
  // would read every period of the listed portals (measured at L: 0.8 s for 1,000 portals).
  const portalCond = portalIn ? sql`and ${portalIn(sql`(p.portal_id + 0)`, 'p')}` : sql``;
  // Both ends moved by the same span (the windows have the same length): the periods in progress at
  // T count for it at the head, those in progress at T - length come off at the tail.
  const spanUs = (win.to.getTime() - base.to.getTime()) * 1000;
  const stateCond = win.tenantId === undefined ? sql`true` : sql`s.tenant_id = ${win.tenantId}`;
  // From a mark, the head's periods since its instant (gated: a mark that no longer stands costs its check alone).
  const stands = sql`(select ok from stands)`;
  const from = mark ?? keptFromBase(base.to);
  // With a next mark (one tenant), the head is read from it: one walk up to its instant, and a short one after.
  const at = nextMark && win.tenantId !== undefined ? nextMark.at : new Date(from.at);
  const cAll = condsOf({ ...win, portalIds: undefined });
  const head =
    mark || at.getTime() !== from.at
      ? sql`select * from (${headSinceSums(c, at, win.to, marked.idList)}) h where ${stands}`
      : edgePeriods(c, base.to, win.to, 1);
  // The unsettled scan reads every status, maintenance too: a status-2 period written late closed an observed one before T.
  // One that ended by the window's start changed nothing of it (nor of the counts in progress there, nor of
  // the kept tail): left out, so the months of the history that ended before it are pruned as the statement starts.
  const unsettledRows = mark
    ? unsettledOf(mark, marked.idList)
    : sql`select u.portal_id, min(u.started_at) as since
            from kept_window_state s
            cross join lateral (select p.portal_id, p.started_at from device_status_periods p
                                 where p.tenant_id = s.tenant_id and p.id > ${base.mark} and p.id > s.period_id_mark
                                   and p.started_at < s.window_to
                                   and (p.ended_at is null or p.ended_at > ${base.from.toISOString()}::timestamptz) ${portalCond}) u
           where ${stateCond}
           group by u.portal_id`;
  const next =
    nextMark && at.getTime() !== from.at && win.tenantId !== undefined
      ? sql`case when ${stands} then ${keptMarkJson(win.tenantId, from, nextMark, base.mark)} end`
      : sql`null::json`;
  const since = mark && win.tenantId !== undefined ? sql`${markSinceCte(win.tenantId, mark)},` : sql``;
  const ctes = sql`${since} stands as (
          select ${mark && win.tenantId !== undefined ? markStands(win.tenantId, mark) : sql`true`}
                 and ${checkBase && win.tenantId !== undefined ? baseStands(win.tenantId, base) : sql`true`} as ok
        ), nm as (${mark || at.getTime() !== from.at ? keptSums(cAll, from, at) : sql`select null::int as portal_id, 0::numeric as on_us, 0::numeric as obs_us, 0::numeric as on_n, 0::numeric as obs_n where false`}
        ), scores as (
          select portal_id, ${SCORE_OF_PARTS} as score
            from (select r.portal_id,
                         r.online_us + (r.online_at_to - r.online_at_from) * ${spanUs}::numeric as on_us,
                         r.observed_us + (r.observed_at_to - r.observed_at_from) * ${spanUs}::numeric as obs_us
                    from kept_windows r where ${c.on('r')} and r.window_to = ${base.to.toISOString()}::timestamptz
                  union all ${head}
                  union all ${keptTailPeriods(c, base.to, base.from, win.from, -1)}) parts
           group by portal_id
          having sum(obs_us) > 0
        ), unsettled as (${unsettledRows})`;
  return { ctes, stands, next };
}

async function keptRead(
  executor: Executor,
  win: RollupWindow,
  base: KeptBase,
  marked: { mark?: KeptMark; next?: NextMark; checkBase?: boolean } = {},
): Promise<MarkedRead<KeptMark, KeptScores>> {
  // A page's few ids go into every index range; a long list (every portal, to sort them) would cost more
  // to plan than the tenant's ~1,000 kept rows cost to aggregate: score the tenant and keep the asked-for ones.
  const inSql = win.portalIds && win.portalIds.length <= MAX_IDS_IN_SQL ? win.portalIds : undefined;
  const { ctes, stands, next } = keptParts(win, base, inSql && portalInList(inSql), { ...marked, idList: inSql });
  const rows = await queryRows<{
    portal_id: number | null;
    score: number | string | null;
    since: Date | string | null;
    stands: boolean;
    next: Parameters<typeof keptMarkOf>[0];
  }>(
    executor,
    sql`with ${ctes}
        select r.portal_id, r.score, r.since, ${stands} as stands, ${next} as next
          from (select 1) one
          left join (select coalesce(s.portal_id, u.portal_id) as portal_id, s.score, u.since
                       from scores s full join unsettled u on u.portal_id = s.portal_id) r on true`,
  );
  const asked = win.portalIds && !inSql ? new Set(win.portalIds) : undefined;
  const scores = new Map<number, number>();
  const unsettled: KeptScores['unsettled'] = [];
  for (const row of rows) {
    if (row.portal_id === null) continue;
    const portalId = Number(row.portal_id);
    if (asked && !asked.has(portalId)) continue;
    if (row.since !== null) unsettled.push({ portalId, since: new Date(row.since) });
    else scores.set(portalId, Number(row.score));
  }
  return { stands: rows[0].stands, next: keptMarkOf(rows[0].next), value: { scores, unsettled } };
}

/** The columns a page's rows carry their kept scores in (keptScoresWithRows). */
interface KeptColumns {
  kept_score: number | string | null;
  kept_since: Date | string | null;
  kept_stands: boolean;
}

/**
 * One tenant's page of rows (`rows`: a select whose rows have the portal's `id` and their place in the
 * page, `page_order`) and the kept scores of its portals in one statement: a page in one round trip
 * (docs/performance-choices.md "A page's rows and scores in one statement"). From the tenant's base as last read
 * (`bases`), checked in the same statement. `kept` is null when no base as last read answers the window
 * or it no longer stands (then dropped): the rows stand, the caller scores them another way.
 */
export async function keptScoresWithRows<R extends { id: number }>(
  executor: Executor,
  win: RollupWindow & { tenantId: number },
  rows: SQL,
  bases: KeptBases,
): Promise<{ rows: R[]; kept: KeptScores | null }> {
  const base = bases.get(win.tenantId);
  if (!base || !answers(base, win)) return { rows: await queryRows<R>(executor, rows), kept: null };
  // The kept rows are joined to the page (the planner knows its 10 rows: an index probe each); the
  // history's conditions take its ids as an array, so the head's removed devices still lead their
  // join (as a join, 10 portals' every period were read for them).
  const portalIn: PortalIn = (column, alias) =>
    alias === 'r' ? sql`${column} in (select id from kept_page)` : sql`${column} = any(array(select id from kept_page))`;
  const { ctes, stands } = keptParts(win, base, portalIn, { checkBase: true });
  const read = await queryRows<(R & KeptColumns) | ({ [K in keyof R]: null } & KeptColumns)>(
    executor,
    sql`with kept_page as materialized (${rows}), ${ctes}
        select kept_page.*, s.score as kept_score, u.since as kept_since, ${stands} as kept_stands
          from (select 1) one
          left join kept_page on true
          left join scores s on s.portal_id = kept_page.id
          left join unsettled u on u.portal_id = kept_page.id
         order by kept_page.page_order`,
  );
  const page = read.filter((row): row is R & KeptColumns => row.id !== null);
  if (!read[0].kept_stands) {
    bases.drop(win.tenantId);
    return { rows: page, kept: null };
  }
  const scores = new Map<number, number>();
  const unsettled: KeptScores['unsettled'] = [];
  for (const row of page) {
    if (row.kept_since !== null) unsettled.push({ portalId: Number(row.id), since: new Date(row.kept_since) });
    else if (row.kept_score !== null) scores.set(Number(row.id), Number(row.kept_score));
  }
  return { rows: page, kept: { scores, unsettled } };
}
