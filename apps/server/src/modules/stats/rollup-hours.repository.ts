import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { ONLINE } from '../../db/codes.ts';
import { observed } from './observed.repository.ts';

/**
 * The tenant-wide hourly rollup (uptime_rollup_hours), rebuilt from `from` (a UTC midnight
 * whose per-portal day rows are already correct) up to the hour `untilHour`, set-based in
 * O(periods starting or ending in the range), never O(period-hours):
 *
 *   atStart(h + 1) = atStart(h) + periods begun in [h, h+1) - periods ended in (h, h+1]
 *   integral(h)    = atStart(h) * 1 h - sum over ended in (h, h+1] and begun before h of (h+1 - end)
 *                                     + sum over begun in [h, h+1) of (min(end, h+1) - start)
 *
 * A rebuild that starts on an hour inside a day (a run since the last one: rollup-build.repository.ts)
 * starts from that hour row's stored counts (the caller starts it where they are still right);
 * each later 7-day chunk, like a rebuild from a midnight, from the day rows at its first midnight.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const CHUNK_MS = 7 * DAY_MS;

/** Devices online / observed at an hour's first instant. */
interface CountsAtStart {
  online: number;
  observed: number;
}

/** Observed periods (status, s, e; maintenance is not: observed.repository.ts) with e clipped at the device's removal, restricted by `where` on `p`. */
function clipped(where: SQL): SQL {
  return sql`select p.status, p.started_at as s,
                    least(coalesce(p.ended_at, 'infinity'::timestamptz), coalesce(d.removed_at, 'infinity'::timestamptz)) as e
               from device_status_periods p
               left join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id and d.removed_at is not null
              where ${observed('p')} and ${where}`;
}

export async function rebuildHours(tx: Executor, tenantId: number, from: Date, untilHour: Date): Promise<void> {
  let start = from.getTime();
  let counts: CountsAtStart | undefined;
  if (start % DAY_MS !== 0) {
    // Read before the delete below removes the row; without it (before the first hour row), from its midnight.
    counts = await storedCounts(tx, tenantId, from);
    if (!counts) start -= start % DAY_MS;
  }
  await tx.execute(
    sql`delete from uptime_rollup_hours where tenant_id = ${tenantId} and hour >= ${new Date(start).toISOString()}::timestamptz`,
  );
  // The first chunk ends at a midnight, so every later one starts from day rows.
  for (let c0 = start, next = start - (start % DAY_MS) + CHUNK_MS; c0 <= untilHour.getTime(); c0 = next, next += CHUNK_MS) {
    const c1 = Math.min(next, untilHour.getTime());
    const lastHour = Math.min(next - HOUR_MS, untilHour.getTime());
    await insertChunk(tx, tenantId, new Date(c0), new Date(c1), new Date(lastHour), untilHour, c0 === start ? counts : undefined);
  }
}

async function storedCounts(tx: Executor, tenantId: number, hour: Date): Promise<CountsAtStart | undefined> {
  const [row] = await queryRows<{ online: number | string; observed: number | string }>(
    tx,
    sql`select online_at_start as online, observed_at_start as observed from uptime_rollup_hours where tenant_id = ${tenantId} and hour = ${hour.toISOString()}::timestamptz`,
  );
  return row && { online: Number(row.online), observed: Number(row.observed) };
}

/**
 * Hours [c0, lastHour]; periods begun in [c0, c1) and ended in (c0, c1]; `untilHour` gets counts only.
 * The counts at c0: `counts`, else the day rows of c0 (a midnight).
 */
async function insertChunk(
  tx: Executor,
  tenantId: number,
  c0d: Date,
  c1d: Date,
  lastHourD: Date,
  untilHourD: Date,
  counts?: CountsAtStart,
): Promise<void> {
  const [c0, c1, lastHour, untilHour] = [c0d, c1d, lastHourD, untilHourD].map((d) => d.toISOString());
  const T = tenantId;
  const us = (interval: SQL) => sql`(extract(epoch from ${interval}) * 1000000)`;
  await tx.execute(sql`
    with begun as (
      select date_trunc('hour', s, 'UTC') as h, status, s, e
        from (${clipped(sql`p.tenant_id = ${T} and p.started_at >= ${c0}::timestamptz and p.started_at < ${c1}::timestamptz`)}) x
       where e > s
    ), ended as (
      select date_trunc('hour', e - interval '1 microsecond', 'UTC') as h, status, s, e
        from (${clipped(sql`p.tenant_id = ${T} and p.ended_at > ${c0}::timestamptz and p.ended_at <= ${c1}::timestamptz`)}
              union all
              select p.status, p.started_at, d.removed_at
                from devices d
                join device_status_periods p on p.tenant_id = d.tenant_id and p.device_id = d.id
               where d.tenant_id = ${T} and ${observed('p')} and d.removed_at > ${c0}::timestamptz and d.removed_at <= ${c1}::timestamptz
                 and (p.ended_at is null or p.ended_at > ${c1}::timestamptz)) x
       where e > s and e > ${c0}::timestamptz and e <= ${c1}::timestamptz
    ), b as (
      select h, count(*) filter (where status = ${ONLINE}) as on_n, count(*) as obs_n,
             sum(${us(sql`least(e, h + interval '1 hour') - s`)}) filter (where status = ${ONLINE}) as on_us,
             sum(${us(sql`least(e, h + interval '1 hour') - s`)}) as obs_us
        from begun group by h
    ), x as (
      select h, count(*) filter (where status = ${ONLINE}) as on_n, count(*) as obs_n,
             sum(${us(sql`h + interval '1 hour' - e`)}) filter (where status = ${ONLINE} and s < h) as on_cut,
             sum(${us(sql`h + interval '1 hour' - e`)}) filter (where s < h) as obs_cut
        from ended group by h
    ), init as (
      ${
        counts
          ? sql`select ${counts.online}::bigint as on0, ${counts.observed}::bigint as obs0`
          : sql`select coalesce(sum(online_at_start), 0) as on0, coalesce(sum(observed_at_start), 0) as obs0
                  from uptime_rollups where tenant_id = ${T} and day = (${c0}::timestamptz at time zone 'UTC')::date`
      }
    ), net as (
      select hours.h, coalesce(b.on_n, 0) - coalesce(x.on_n, 0) as d_on, coalesce(b.obs_n, 0) - coalesce(x.obs_n, 0) as d_obs,
             coalesce(b.on_us, 0) - coalesce(x.on_cut, 0) as on_part, coalesce(b.obs_us, 0) - coalesce(x.obs_cut, 0) as obs_part
        from generate_series(${c0}::timestamptz, ${lastHour}::timestamptz, interval '1 hour') as hours(h)
        left join b on b.h = hours.h
        left join x on x.h = hours.h
    ), run as (
      select net.h, net.on_part, net.obs_part,
             init.on0 + coalesce(sum(d_on) over w, 0) as on_start, init.obs0 + coalesce(sum(d_obs) over w, 0) as obs_start
        from net, init
      window w as (order by net.h rows between unbounded preceding and 1 preceding)
    )
    insert into uptime_rollup_hours (tenant_id, hour, online_us, observed_us, online_at_start, observed_at_start)
    select ${T}, h,
           case when h < ${untilHour}::timestamptz then on_start * ${HOUR_MS * 1000}::numeric + on_part else 0 end,
           case when h < ${untilHour}::timestamptz then obs_start * ${HOUR_MS * 1000}::numeric + obs_part else 0 end,
           on_start, obs_start
      from run`);
}
