import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { condsOf, edgeRows, inProgressAt, rolledDayParts } from './rollup-query.repository.ts';

/**
 * Kept windows (docs/uptime-rollup.md, "Kept windows"): after each rollup run, per portal, the
 * exact online/observed microseconds of the window [T - length, T] and the periods in progress at
 * its two ends, so a request scores every portal over the window ending now from these rows plus
 * the few periods that start or end within minutes of either end (kept-window-query.repository.ts).
 */

const DAY_MS = 86_400_000;
/** The window kept: the Portals list's Reliability Score column and Pulse's default (docs/decisions.md 27). */
export const KEPT_WINDOW_MS = 30 * DAY_MS;
/**
 * How long before the job's run the base instant T lies. A period that starts before T but is
 * written after the run (a report delivered late, a first report dated in the past) is not in
 * the base, and its portal is scored from the rollup instead until the next run; reports and the
 * offline sweep (30 s ticks) are rarely that late, so in the steady state no portal is.
 */
export const KEPT_BASE_LAG_MS = 10 * 60_000;

/**
 * How long after T a base answers a request (kept-window-query.repository.ts): beyond it the corrections
 * cost about what the rollup does. Also the stretch after the window's start that its tail keeps.
 */
export const KEPT_BASE_ANSWERS_MS = 60 * 60_000;

const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);

/**
 * Recomputes the tenant's kept window at T = now - lag, from the rollup just brought up to `now`
 * (call after rollUpTenant, in its transaction or in one of its own once it committed, with its
 * `periodIdMark`: a period with a higher id may be missing from the rollup rows the base is summed
 * from, so it is treated as not in the base, and its portal is scored another way; one written
 * between the two transactions is such a period too). Keeps the previous generation of rows for
 * readers that read the state just before this transaction committed.
 */
export async function keepWindow(
  tx: Executor,
  tenantId: number,
  now: Date,
  periodIdMark: number,
): Promise<{ windowTo: Date; portals: number }> {
  const to = new Date(now.getTime() - KEPT_BASE_LAG_MS);
  const from = new Date(to.getTime() - KEPT_WINDOW_MS);
  const until = floorDay(now);
  const [previous] = await queryRows<{ window_to: Date | string }>(
    tx,
    sql`select window_to from kept_window_state where tenant_id = ${tenantId} for update`,
  );
  const c = condsOf({ tenantId, from, to });
  await tx.execute(sql`delete from kept_windows where tenant_id = ${tenantId} and window_to = ${to.toISOString()}::timestamptz`);
  const inserted = await queryRows<{ portal_id: number }>(
    tx,
    sql`insert into kept_windows (tenant_id, window_to, portal_id, online_us, observed_us, online_at_to, observed_at_to, online_at_from, observed_at_from)
        select ${tenantId}, ${to.toISOString()}::timestamptz, portal_id,
               sum(on_us)::bigint, sum(obs_us)::bigint, sum(on_to)::int, sum(obs_to)::int, sum(on_from)::int, sum(obs_from)::int
          from (select portal_id, on_us, obs_us, 0 as on_to, 0 as obs_to, 0 as on_from, 0 as obs_from
                  from (${rolledDayParts({ tenantId, from, to }, until)}) w
                union all
                select portal_id, 0, 0, online_n, observed_n, 0, 0 from (${inProgressAt(c, to, until)}) at_to
                union all
                select portal_id, 0, 0, 0, 0, online_n, observed_n from (${inProgressAt(c, from, until)}) at_from) parts
         group by portal_id
        returning portal_id`,
  );
  // The tail: what the live edge at the window's start would read for any request this base answers.
  const tail = edgeRows(c, from, new Date(from.getTime() + KEPT_BASE_ANSWERS_MS));
  await tx.execute(sql`delete from kept_window_tails where tenant_id = ${tenantId} and window_to = ${to.toISOString()}::timestamptz`);
  await tx.execute(
    sql`insert into kept_window_tails (tenant_id, window_to, portal_id, status, started_at, ended_at)
        select ${tenantId}, ${to.toISOString()}::timestamptz, portal_id, status, s, e
          from (${tail.ended} union all ${tail.begun}) t`,
  );
  // Keep this generation and the one before it; older ones have no reader left.
  const keep = sql`${`{${[to.toISOString(), ...(previous ? [new Date(previous.window_to).toISOString()] : [])].join(',')}}`}::timestamptz[]`;
  await tx.execute(sql`delete from kept_windows where tenant_id = ${tenantId} and window_to <> all(${keep})`);
  await tx.execute(sql`delete from kept_window_tails where tenant_id = ${tenantId} and window_to <> all(${keep})`);
  await tx.execute(sql`
    insert into kept_window_state (tenant_id, window_from, window_to, period_id_mark, updated_at)
    values (${tenantId}, ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, ${periodIdMark}, ${now.toISOString()}::timestamptz)
    on conflict (tenant_id) do update
       set window_from = excluded.window_from, window_to = excluded.window_to,
           period_id_mark = excluded.period_id_mark, updated_at = excluded.updated_at`);
  return { windowTo: to, portals: inserted.length };
}
