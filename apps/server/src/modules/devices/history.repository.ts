import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { ONLINE } from '../../db/codes.ts';
import { tenantCondition } from '../../db/sql-fragments.ts';
import { observed } from '../stats/index.ts';

/** What the device page needs beyond the list row (docs/history.md). */
export interface DeviceExtrasRow {
  tenant_id: number;
  first_seen_at: Date | string;
  status_since: Date | string;
  goal_score: number;
  open_alert_id: number | null;
}

/** The device's first report, status since, its tenant's goal and its newest open Device Offline alert. */
export async function deviceExtras(executor: Executor, scope: Scope, id: number): Promise<DeviceExtrasRow | undefined> {
  const [row] = await queryRows<DeviceExtrasRow>(
    executor,
    sql`select d.tenant_id, d.first_seen_at, d.status_since, t.goal_score,
               (select max(a.id) from alert_devices ad
                  join alerts a on a.tenant_id = ad.tenant_id and a.id = ad.alert_id
                 where ad.tenant_id = d.tenant_id and ad.device_id = d.id and a.resolved_at is null) as open_alert_id
          from devices d join tenants t on t.id = d.tenant_id
         where d.id = ${id} and d.removed_at is null and ${tenantCondition(scope, sql`d.tenant_id`)}`,
  );
  return row;
}

export interface PeriodRow {
  status: number;
  s: Date | string;
  e: Date | string;
}

/**
 * A device's periods over [from, to], clipped to it, oldest first: the one in progress at `from`
 * and those begun inside (both through `periods_device_idx`). An open period ends at `openEnd`
 * (now, or `to` when that is earlier). Nothing before the device's first report is a period.
 * Maintenance (status 2) passes through; zero-length periods (a device that entered maintenance
 * at the instant its period began leaves one, docs/history.md) are dropped, and skipped when
 * looking for the period in progress at `from` (it shares its start with the next one).
 */
export async function devicePeriods(
  executor: Executor,
  q: { tenantId: number; deviceId: number; from: Date; to: Date; openEnd: Date },
): Promise<PeriodRow[]> {
  const from = q.from.toISOString();
  const to = q.to.toISOString();
  const openEnd = q.openEnd.toISOString();
  return queryRows<PeriodRow>(
    executor,
    sql`select status, s, e from (
          select x.status, greatest(x.started_at, ${from}::timestamptz) as s,
                 least(coalesce(x.ended_at, ${openEnd}::timestamptz), ${to}::timestamptz) as e
            from (select p.status, p.started_at, p.ended_at from device_status_periods p
                   where p.tenant_id = ${q.tenantId} and p.device_id = ${q.deviceId}
                     and p.started_at >= ${from}::timestamptz and p.started_at < ${to}::timestamptz
                  union all
                  select * from (select p.status, p.started_at, p.ended_at from device_status_periods p
                                  where p.tenant_id = ${q.tenantId} and p.device_id = ${q.deviceId} and p.started_at < ${from}::timestamptz
                                    and (p.ended_at is null or p.ended_at > p.started_at)
                                  order by p.started_at desc limit 1) before
                   where before.ended_at is null or before.ended_at > ${from}::timestamptz) x
        ) c
        where e > s
        order by s`,
  );
}

/**
 * The device's score over [from, to] (online / observed seconds, one decimal half up; -1 when nothing
 * was observed); maintenance is not observed time, as in every score (stats/observed.repository.ts).
 */
export async function deviceScore(executor: Executor, q: { tenantId: number; deviceId: number; from: Date; to: Date }): Promise<number> {
  const [row] = await queryRows<{ score: number | string }>(
    executor,
    sql`select case when sum(extract(epoch from (e - s))) > 0
                 then round(100 * sum(case when status = ${ONLINE} then extract(epoch from (e - s)) else 0 end)::numeric
                            / sum(extract(epoch from (e - s)))::numeric, 1)::float8
                 else -1 end as score
          from (select p.status, greatest(p.started_at, ${q.from.toISOString()}::timestamptz) as s,
                       least(coalesce(p.ended_at, ${q.to.toISOString()}::timestamptz), ${q.to.toISOString()}::timestamptz) as e
                  from device_status_periods p
                 where p.tenant_id = ${q.tenantId} and p.device_id = ${q.deviceId} and ${observed('p')}
                   and p.started_at < ${q.to.toISOString()}::timestamptz
                   and (p.ended_at is null or p.ended_at > ${q.from.toISOString()}::timestamptz)) c
         where e > s`,
  );
  return row ? Number(row.score) : -1;
}
