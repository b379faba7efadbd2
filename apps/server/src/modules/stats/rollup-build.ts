import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { rebuildHours } from './rollup-hours.ts';

/**
 * Builds the uptime rollup of one tenant (docs/uptime-rollup.md), set-based.
 *
 * What can change a past day: periods are only ever changed by closing a device's open period
 * at some `at` and inserting the next period starting at that same `at` (webhook reports, the
 * offline sweep), by inserting a new device's first period at its first report, and by a
 * removal closing the open period at the removal (now). So every change to day d inserts a
 * period that starts on or before d. Each run therefore recomputes, per portal, from the
 * earliest start day of the periods inserted since the run before last (ids above
 * `period_id_prev_mark`: two runs back, so a transaction still in flight during the last run
 * is not missed), and always the last 2 days (a safety net for anything else recent).
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Days per INSERT statement when (re)building a long stretch of history. */
const CHUNK_DAYS = 7;

const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

interface State {
  rolled_until: Date | string;
  period_id_mark: number | string;
  period_id_prev_mark: number | string;
}

export interface RollupRun {
  /** First day recomputed for any portal (null when the tenant has no history). */
  fromDay: Date | null;
  /** Portals recomputed from earlier than the 2-day safety net (back-dated periods). */
  backdatedPortals: number;
  /** The highest period id when the run began: periods above it may be missing from its rows. */
  periodIdMark: number;
}

/** Brings the tenant's rollup up to the UTC midnight before `now`; call inside one transaction (the state row is locked). */
export async function rollUpTenant(tx: Executor, tenantId: number, now: Date): Promise<RollupRun> {
  const until = floorDay(now);
  const untilHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const [state] = await queryRows<State>(
    tx,
    sql`select rolled_until, period_id_mark, period_id_prev_mark from uptime_rollup_state where tenant_id = ${tenantId} for update`,
  );
  const [{ max_id: maxIdRaw }] = await queryRows<{ max_id: number | string }>(
    tx,
    sql`select coalesce(max(id), 0) as max_id from device_status_periods where tenant_id = ${tenantId}`,
  ) as [{ max_id: number | string }];
  const maxId = Number(maxIdRaw);

  let base: Date | null;
  let backdated: { portal_id: number; day: Date }[] = [];
  if (!state) {
    // First run: all of history.
    const [first] = await queryRows<{ first: Date | string | null }>(
      tx,
      sql`select min(started_at) as first from device_status_periods where tenant_id = ${tenantId}`,
    );
    base = first?.first ? new Date(Math.min(floorDay(new Date(first.first)).getTime(), until.getTime())) : null;
  } else {
    base = new Date(Math.min(addDays(until, -2).getTime(), new Date(state.rolled_until).getTime()));
    const fresh = await queryRows<{ portal_id: number; first: Date | string }>(
      tx,
      sql`select portal_id, min(started_at) as first from device_status_periods
           where tenant_id = ${tenantId} and id > ${Number(state.period_id_prev_mark)} group by portal_id`,
    );
    backdated = fresh
      .map((f) => ({ portal_id: Number(f.portal_id), day: floorDay(new Date(f.first)) }))
      .filter((f) => f.day < base!);
  }

  if (base) {
    const earliest = backdated.reduce((min, f) => (f.day < min ? f.day : min), base);
    const portals = `{${backdated.map((f) => f.portal_id).join(',')}}`;
    const days = `{${backdated.map((f) => f.day.toISOString().slice(0, 10)).join(',')}}`;
    const fromOf = sql`coalesce((select f.day from unnest(${portals}::int[], ${days}::date[]) as f(portal_id, day) where f.portal_id = r.portal_id), ${base.toISOString().slice(0, 10)}::date)`;
    await tx.execute(sql`delete from uptime_rollups r where r.tenant_id = ${tenantId} and r.day >= ${earliest.toISOString().slice(0, 10)}::date and r.day >= ${fromOf}`);
    for (let chunk = earliest; chunk <= until; chunk = addDays(chunk, CHUNK_DAYS)) {
      await insertDays(tx, { tenantId, until, base, portals, days, chunkFrom: chunk, chunkTo: addDays(chunk, CHUNK_DAYS) });
    }
    await rebuildHours(tx, tenantId, earliest, untilHour);
  } else {
    await tx.execute(sql`delete from uptime_rollup_hours where tenant_id = ${tenantId}`);
  }

  await tx.execute(sql`
    insert into uptime_rollup_state (tenant_id, rolled_until, hours_rolled_until, period_id_mark, period_id_prev_mark, updated_at)
    values (${tenantId}, ${until.toISOString()}::timestamptz, ${untilHour.toISOString()}::timestamptz, ${maxId},
            ${state ? Number(state.period_id_mark) : maxId}, ${now.toISOString()}::timestamptz)
    on conflict (tenant_id) do update
       set rolled_until = excluded.rolled_until, hours_rolled_until = excluded.hours_rolled_until, period_id_mark = excluded.period_id_mark,
           period_id_prev_mark = excluded.period_id_prev_mark, updated_at = excluded.updated_at`);
  return { fromDay: base && backdated.reduce((min, f) => (f.day < min ? f.day : min), base), backdatedPortals: backdated.length, periodIdMark: maxId };
}

/**
 * Inserts the rows of days in [chunkFrom, chunkTo) (and <= until) from each portal's first
 * recomputed day on. Works in UTC timestamps without time zone, so a day is always 24 h.
 * A period contributes to every day it overlaps; it is "at start" of day d when it began
 * before d and ends after d. The `until` day only gets its counts (its integral stops at until).
 */
async function insertDays(
  tx: Executor,
  o: { tenantId: number; until: Date; base: Date; portals: string; days: string; chunkFrom: Date; chunkTo: Date },
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
             greatest(coalesce(f.day, ${o.base.toISOString().slice(0, 10)}::date)::timestamp, ${c0}::timestamp) as f0
        from device_status_periods p
        left join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id and d.removed_at is not null
        left join fresh f on f.portal_id = p.portal_id
       where p.tenant_id = ${o.tenantId} and p.started_at < ${startBefore}::timestamptz
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
           coalesce(sum(ov) filter (where status = 1), 0), coalesce(sum(ov), 0),
           count(*) filter (where status = 1 and s < day and e > day), count(*) filter (where s < day and e > day)
      from (select portal_id, status, s, e, day,
                   greatest(0, extract(epoch from (least(e, day + interval '1 day', ${H}::timestamp) - greatest(s, day))) * 1000000)::bigint as ov
              from days) x
     group by portal_id, day`);
}
