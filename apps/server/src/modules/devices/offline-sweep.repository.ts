import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { OFFLINE, ONLINE } from '../../db/codes.ts';
import { exactInstant } from '../../db/sql-fragments.ts';

/**
 * Offline sweep (docs/decisions.md 26): a device online with no report for its tenant's
 * `heartbeat_timeout` minutes goes offline AT `last_report_at + timeout` (not at the
 * time the sweep notices), so history and reliability do not depend on when the
 * sweep ran. Set-based across all tenants, in batches; idempotent (a device already
 * offline is not a candidate). Each 30 s tick runs in one process (runTickOnce).
 */
export const SWEEP_BATCH = 10_000;

export interface Candidate {
  tenant_id: number;
  id: number;
  portal_id: number;
  /** status_since and off_at are PostgreSQL's text, exact to the microsecond (db/sql-fragments.ts exactInstant). */
  status_since: string;
  /** Set while a maintenance window covers the device: its status moves, its history does not. */
  maintenance_since: Date | string | null;
  off_at: string;
}

/**
 * Locks the overdue devices first (a statement of its own, so the next statement's
 * snapshot sees any period committed meanwhile). SKIP LOCKED: a device a webhook is
 * updating right now has just reported; the next tick looks at it again.
 */
export function lockOverdue(tx: Executor, now: Date): Promise<Candidate[]> {
  const nowText = now.toISOString();
  return queryRows<Candidate>(
    tx,
    sql`select d.tenant_id, d.id, d.portal_id, ${exactInstant(sql`d.status_since`)} as status_since, d.maintenance_since,
               -- never before status_since: a device that left maintenance after its last report goes offline then at the earliest
               ${exactInstant(sql`greatest(d.last_report_at + make_interval(mins => t.heartbeat_timeout), d.status_since)`)} as off_at
          from devices d
          join tenants t on t.id = d.tenant_id
          join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id
         where d.status = ${ONLINE} and d.removed_at is null and t.deleted_at is null and p.deleted_at is null
           and d.last_report_at <= ${nowText}::timestamptz - interval '1 minute'
           and d.last_report_at + make_interval(mins => t.heartbeat_timeout) <= ${nowText}::timestamptz
         order by d.tenant_id, d.id
         limit ${SWEEP_BATCH}
           for update of d skip locked`,
  );
}

/**
 * Closes each online period and opens the offline one at `off_at`; the open period starts at `status_since`.
 * A device in maintenance (docs/maintenance.md) keeps its open status-2 period: only its row goes offline.
 */
export async function markOffline(tx: Executor, rows: Candidate[], now: Date): Promise<void> {
  await tx.execute(sql`
    with s as (
      select * from unnest(${sql.param(rows.map((r) => r.tenant_id))}::int[], ${sql.param(rows.map((r) => r.id))}::int[],
                           ${sql.param(rows.map((r) => r.portal_id))}::int[], ${sql.param(rows.map((r) => r.off_at))}::timestamptz[],
                           ${sql.param(rows.map((r) => r.status_since))}::timestamptz[],
                           ${sql.param(rows.map((r) => r.maintenance_since !== null && r.maintenance_since !== undefined))}::boolean[])
             as s(tenant_id, id, portal_id, off_at, status_since, in_maintenance)
    ), closed as (
      update device_status_periods p set ended_at = s.off_at
        from s
       where not s.in_maintenance
         and p.tenant_id = s.tenant_id and p.device_id = s.id and p.started_at >= s.status_since and p.ended_at is null -- via periods_device_idx, as in webhooks/ingest.repository.ts
    ), opened as (
      insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
      select tenant_id, id, portal_id, ${OFFLINE}, off_at from s where not s.in_maintenance
    )
    update devices d set status = ${OFFLINE}, status_since = s.off_at, updated_at = ${now.toISOString()}::timestamptz
      from s
     where d.tenant_id = s.tenant_id and d.id = s.id`);
}
