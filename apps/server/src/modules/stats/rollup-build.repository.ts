import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { rebuildHours } from './rollup-hours.repository.ts';
import { ONLINE } from '../../db/codes.ts';
import { observed } from './observed.repository.ts';

/**
 * Builds the uptime rollup of one tenant (docs/uptime-rollup.md), set-based and incrementally:
 * a run rewrites only the rows that can have changed since the rows were written.
 *
 * What can change the past: periods are only ever changed by closing a device's open period at
 * some `at` and inserting the next period starting at that same `at` (webhook reports, the offline
 * sweep), by inserting a new device's first period at its first report, and by a removal closing
 * the open period at the removal (its request's now). So a change at instant `at` touches the rows
 * of `at`'s day (hour) and later ones, and a stored row's counts at its first instant only when `at`
 * is that very instant. A run finds the changes since the run before last (two runs back, so a
 * transaction still in flight during the last run is not missed): periods with ids above
 * `period_id_prev_mark`, and devices removed at most REMOVAL_LAG before the last run or since. It
 * rewrites the day rows of each changed portal from the day of its earliest change, the new days
 * (those past `rolled_until`) of every portal, and the tenant's hour rows from the earliest change
 * or the last rolled hour, whichever is first. Changes after the last rolled midnight (hour) touch
 * no stored day (hour) row: a run in the middle of a day with webhooks arriving writes a few hour
 * rows only.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Days per INSERT statement when (re)building a long stretch of history. */
const CHUNK_DAYS = 7;
/**
 * A removal's time is its request's now, which precedes its commit by the request's duration (at
 * most the 30 s statement timeout per statement): a removal committed after the last run's snapshot
 * is dated at most this long before that run.
 */
const REMOVAL_LAG_MS = 10 * 60_000;

const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (d: Date) => new Date(Math.ceil(d.getTime() / HOUR_MS) * HOUR_MS);
const dateOf = (d: Date) => d.toISOString().slice(0, 10);
const earliestOf = (dates: Date[]): Date | null => dates.reduce<Date | null>((min, d) => (!min || d < min ? d : min), null);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

interface State {
  rolled_until: Date | string;
  hours_rolled_until: Date | string;
  period_id_mark: number | string;
  period_id_prev_mark: number | string;
  updated_at: Date | string;
}

export interface RollupRun {
  /** First day whose rows were rewritten for any portal (null: no day row was). */
  fromDay: Date | null;
  /** Portals whose stored days were recomputed for a change (a back-dated period or a removal). */
  backdatedPortals: number;
  /** The highest period id when the run began: periods above it may be missing from its rows. */
  periodIdMark: number;
}

/** Brings the tenant's rollup up to the UTC midnight before `now`; call inside one transaction (the state row is locked). */
export async function rollUpTenant(tx: Executor, tenantId: number, now: Date): Promise<RollupRun> {
  const until = floorDay(now);
  const untilHour = floorHour(now);
  const [state] = await queryRows<State>(
    tx,
    sql`select rolled_until, hours_rolled_until, period_id_mark, period_id_prev_mark, updated_at
          from uptime_rollup_state where tenant_id = ${tenantId} for update`,
  );
  const [{ max_id: maxIdRaw }] = (await queryRows<{ max_id: number | string }>(
    tx,
    sql`select coalesce(max(id), 0) as max_id from device_status_periods where tenant_id = ${tenantId}`,
  )) as [{ max_id: number | string }];
  const maxId = Number(maxIdRaw);

  const plan = state ? await planSinceLastRun(tx, tenantId, state, until, untilHour) : await planFirstRun(tx, tenantId, until);
  if (plan.daysFrom) {
    const { base, changed } = plan;
    const portals = `{${changed.map((f) => f.portal_id).join(',')}}`;
    const days = `{${changed.map((f) => f.day.toISOString().slice(0, 10)).join(',')}}`;
    const fromOf = sql`coalesce((select f.day from unnest(${portals}::int[], ${days}::date[]) as f(portal_id, day) where f.portal_id = r.portal_id), ${base ? sql`${dateOf(base)}::date` : sql`'infinity'::date`})`;
    await tx.execute(
      sql`delete from uptime_rollups r where r.tenant_id = ${tenantId} and r.day >= ${dateOf(plan.daysFrom)}::date and r.day >= ${fromOf}`,
    );
    for (let chunk = plan.daysFrom; chunk <= until; chunk = addDays(chunk, CHUNK_DAYS)) {
      await insertDays(tx, { tenantId, until, base, portals, days, chunkFrom: chunk, chunkTo: addDays(chunk, CHUNK_DAYS) });
    }
  }
  if (plan.hoursFrom) await rebuildHours(tx, tenantId, plan.hoursFrom, untilHour);
  else if (!state) await tx.execute(sql`delete from uptime_rollup_hours where tenant_id = ${tenantId}`);

  await tx.execute(sql`
    insert into uptime_rollup_state (tenant_id, rolled_until, hours_rolled_until, period_id_mark, period_id_prev_mark, updated_at)
    values (${tenantId}, ${until.toISOString()}::timestamptz, ${untilHour.toISOString()}::timestamptz, ${maxId},
            ${state ? Number(state.period_id_mark) : maxId}, ${now.toISOString()}::timestamptz)
    on conflict (tenant_id) do update
       set rolled_until = excluded.rolled_until, hours_rolled_until = excluded.hours_rolled_until, period_id_mark = excluded.period_id_mark,
           period_id_prev_mark = excluded.period_id_prev_mark, updated_at = excluded.updated_at`);
  return { fromDay: plan.daysFrom, backdatedPortals: plan.changed.length, periodIdMark: maxId };
}

interface RunPlan {
  /** Every portal's days are recomputed from this midnight on (null: only the changed portals'). */
  base: Date | null;
  /** Portals recomputed from an earlier day than `base` (the day of their earliest change). */
  changed: { portal_id: number; day: Date }[];
  /** The first day recomputed for any portal; null when no day row changes. */
  daysFrom: Date | null;
  /** The first hour recomputed (its stored counts at start are still right); null when no hour row changes. */
  hoursFrom: Date | null;
}

/** First run for a tenant: all of its history (7-day chunks, one statement each). */
async function planFirstRun(tx: Executor, tenantId: number, until: Date): Promise<RunPlan> {
  const [first] = await queryRows<{ first: Date | string | null }>(
    tx,
    sql`select min(started_at) as first from device_status_periods where tenant_id = ${tenantId}`,
  );
  const base = first?.first ? new Date(Math.min(floorDay(new Date(first.first)).getTime(), until.getTime())) : null;
  return { base, changed: [], daysFrom: base, hoursFrom: base };
}

/**
 * What changed since the run before last (periods inserted, devices removed), per portal its
 * earliest instant; then which day and hour rows that touches (see the head of this file).
 */
async function planSinceLastRun(tx: Executor, tenantId: number, state: State, until: Date, untilHour: Date): Promise<RunPlan> {
  const rolledUntil = new Date(state.rolled_until);
  const hoursRolledUntil = new Date(state.hours_rolled_until);
  const removedSince = new Date(new Date(state.updated_at).getTime() - REMOVAL_LAG_MS);
  const rows = await queryRows<{ portal_id: number; first: Date | string }>(
    tx,
    sql`select portal_id, min(at) as first
          from (select portal_id, started_at as at from device_status_periods
                 where tenant_id = ${tenantId} and id > ${Number(state.period_id_prev_mark)}
                union all
                select portal_id, removed_at from devices
                 where tenant_id = ${tenantId} and removed_at > ${removedSince.toISOString()}::timestamptz) c
         group by portal_id`,
  );
  const changes = rows.map((r) => ({ portal_id: Number(r.portal_id), at: new Date(r.first) }));
  // Days past the rolled midnight are new for every portal; the rolled midnight's own row held counts only.
  const base = rolledUntil < until ? rolledUntil : null;
  // A change after `until` touches no stored day row (the `until` row holds the counts at its first instant only).
  const changed = changes
    .filter((c) => c.at <= until)
    .map((c) => ({ portal_id: c.portal_id, day: floorDay(c.at) }))
    .filter((c) => !base || c.day < base);
  const daysFrom = earliestOf([...(base ? [base] : []), ...changed.map((c) => c.day)]);
  // Hours: the same rule per hour, for the tenant as a whole. Starting at a change's hour reuses that
  // row's counts at start, so a change at exactly an hour's first instant starts an hour earlier.
  const hourStarts = changes.filter((c) => c.at <= untilHour).map((c) => new Date(ceilHour(c.at).getTime() - HOUR_MS));
  if (hoursRolledUntil < untilHour) hourStarts.push(hoursRolledUntil);
  const hoursFrom = earliestOf(hourStarts);
  return { base, changed, daysFrom, hoursFrom };
}

/**
 * Inserts the rows of days in [chunkFrom, chunkTo) (and <= until) from each portal's first
 * recomputed day on (each changed portal from its own day; the others from `base`, or not at all
 * when `base` is null). Works in UTC timestamps without time zone, so a day is always 24 h.
 * A period contributes to every day it overlaps; it is "at start" of day d when it began
 * before d and ends after d. The `until` day only gets its counts (its integral stops at until).
 */
async function insertDays(
  tx: Executor,
  o: { tenantId: number; until: Date; base: Date | null; portals: string; days: string; chunkFrom: Date; chunkTo: Date },
): Promise<void> {
  const H = utc(o.until);
  const c0 = utc(o.chunkFrom);
  const lastDay = utc(new Date(Math.min(addDays(o.chunkTo, -1).getTime(), o.until.getTime())));
  const startBefore = new Date(Math.min(o.chunkTo.getTime(), addDays(o.until, 1).getTime())).toISOString();
  await tx.execute(sql`
    with fresh as (
      select * from unnest(${o.portals}::int[], ${o.days}::date[]) as f(portal_id, day)
    ), src as (
      select p.portal_id, p.status, p.started_at at time zone 'UTC' as s,
             least(coalesce(p.ended_at, 'infinity'::timestamptz), coalesce(d.removed_at, 'infinity'::timestamptz)) at time zone 'UTC' as e,
             greatest(${o.base ? sql`coalesce(f.day, ${dateOf(o.base)}::date)` : sql`f.day`}::timestamp, ${c0}::timestamp) as f0
        from device_status_periods p
        left join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id and d.removed_at is not null
        ${o.base ? sql`left join` : sql`join`} fresh f on f.portal_id = p.portal_id
       where p.tenant_id = ${o.tenantId} and ${observed('p')} and p.started_at < ${startBefore}::timestamptz
         and (p.ended_at is null or p.ended_at > ${o.chunkFrom.toISOString()}::timestamptz)
    ), days as (
      select src.*, day
        from src,
             generate_series(greatest(date_trunc('day', s), f0),
                             least(date_trunc('day', least(e, ${H}::timestamp + interval '1 day')), ${lastDay}::timestamp),
                             interval '1 day') as day
       where e > s and e > f0
    )
    insert into uptime_rollups (tenant_id, day, portal_id, online_us, observed_us, online_at_start, observed_at_start)
    select ${o.tenantId}, day::date, portal_id,
           coalesce(sum(ov) filter (where status = ${ONLINE}), 0), coalesce(sum(ov), 0),
           count(*) filter (where status = ${ONLINE} and s < day and e > day), count(*) filter (where s < day and e > day)
      from (select portal_id, status, s, e, day,
                   greatest(0, extract(epoch from (least(e, day + interval '1 day', ${H}::timestamp) - greatest(s, day))) * 1000000)::bigint as ov
              from days) x
     group by portal_id, day`);
}

/** Every tenant's id, in order (the rollup job runs them one by one). */
export const tenantIds = (tx: Executor) => queryRows<{ id: number }>(tx, sql`select id from tenants order by id`);
