import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import {
  CHANGE_AT,
  outcomesOf,
  PERIOD_CHANGES,
  RECORDED,
  recordingCtes,
  type InventoryInput,
  type MessageToRecord,
  type RecordOutcome,
  type StatusChange,
} from './ingest.repository.ts';
import { ONLINE } from '../../db/codes.ts';

/**
 * A whole commit group in ONE statement, for the common case: every device is reported once in
 * the group. It records the messages' ids (as recordMessages) and, only when every message of the
 * group was recorded, applies the reports: creates unknown devices with their first period, and
 * for known ones does in one pass what upsertInventory and applyReportRound do in two (inventory,
 * state, period closed and opened, late report kept). When a message was a duplicate or refused,
 * nothing is applied and `applied` is false: the caller applies the recorded messages' reports
 * the general way, in the same transaction.
 *
 * PGlite only. The devices' state is read from the statement's snapshot, which is the current
 * state only where no other transaction can commit meanwhile: PGlite's one session runs one
 * transaction at a time. On PostgreSQL a concurrent group could change a device after this
 * snapshot and its new open period would stay invisible here, so there the devices are locked
 * first (upsertInventory) and read again by the next statement.
 */
export interface OnePassResult {
  outcomes: RecordOutcome[];
  applied: boolean;
  /** Devices created (with their first report's status) and devices whose status changed, when applied. */
  changes: StatusChange[];
}

export async function recordAndApply(
  executor: Executor,
  messages: MessageToRecord[],
  devices: InventoryInput,
  now: Date,
): Promise<OnePassResult> {
  const at = now.toISOString();
  const rows = await queryRows<{
    kind: number;
    i: number | null;
    recorded: boolean | null;
    id: number | null;
    tenant_id: number | null;
    portal_id: number | null;
    status: number | null;
    at: Date | string | null;
  }>(
    executor,
    sql`with ${recordingCtes(messages, at)}, go as (
          -- all or nothing: the group's reports apply only when every message of it was recorded
          select (select count(*) from ins) = ${messages.length}::int as ok
        ), r as (
          select r.* from unnest(${sql.param(devices.tenantIds)}::int[], ${sql.param(devices.portalIds)}::int[],
                                 ${sql.param(devices.externalIds)}::text[], ${sql.param(devices.names)}::text[],
                                 ${sql.param(devices.deviceTypes)}::smallint[], ${sql.param(devices.deviceModels)}::text[],
                                 ${sql.param(devices.statuses)}::smallint[], ${sql.param(devices.ats)}::timestamptz[])
                 as r(tenant_id, portal_id, external_id, name, device_type, device_model, status, at)
           where (select ok from go)
        ), cur as (
          select r.*, d.id, d.status as old_status, d.status_since, d.maintenance_since, d.removed_at,
                 (r.at > d.last_report_at and (d.removed_at is null or r.at > d.removed_at)) as fresh,
                 ${CHANGE_AT} as change_at,
                 (d.name, d.device_type, d.device_model) is distinct from (r.name, r.device_type, r.device_model) as renamed
            from r left join devices d on d.tenant_id = r.tenant_id and d.portal_id = r.portal_id and d.external_id = r.external_id
        ), created as (
          insert into devices (tenant_id, portal_id, external_id, name, device_type, device_model, status,
                               last_report_at, last_online, status_since, first_seen_at, created_at, updated_at)
          select tenant_id, portal_id, external_id, name, device_type, device_model, status,
                 at, case when status = ${ONLINE} then at end, at, at, ${at}::timestamptz, ${at}::timestamptz
            from cur where id is null order by tenant_id, portal_id, external_id
          returning id, tenant_id, portal_id, status, status_since
        ), first_periods as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select tenant_id, id, portal_id, status, status_since from created
        ), late as (
          insert into late_device_reports (tenant_id, device_id, status, reported_at, created_at)
          select tenant_id, id, status, at, ${at}::timestamptz from cur where id is not null and not fresh
        ), changed as (
          select * from cur where fresh and (status <> old_status or removed_at is not null)
        ), ${PERIOD_CHANGES}, updated as (
          -- the inventory of every report, the state of fresh ones only (a late report never moves it)
          update devices d
             set name = c.name, device_type = c.device_type, device_model = c.device_model,
                 status = case when c.fresh then c.status else d.status end,
                 last_report_at = case when c.fresh then c.at else d.last_report_at end,
                 status_since = case when c.fresh and (c.status <> c.old_status or c.removed_at is not null) then c.change_at else d.status_since end,
                 last_online = case when c.fresh and c.status = ${ONLINE} then c.at else d.last_online end,
                 removed_at = case when c.fresh then null else d.removed_at end,
                 updated_at = ${at}::timestamptz
            from cur c
           where c.id is not null and (c.fresh or c.renamed) and d.tenant_id = c.tenant_id and d.id = c.id
        )
        select 0 as kind, live.i, ${RECORDED} as recorded,
               null::int as id, null::int as tenant_id, null::int as portal_id, null::smallint as status, null::timestamptz as at
          from live
        union all
        select 1, null, (select ok from go), null, null, null, null, null
        union all
        select 2, null, null, id, tenant_id, portal_id, status, status_since from created
        union all
        select 2, null, null, id, tenant_id, portal_id, status, change_at from changed`,
  );
  const outcomes = outcomesOf(
    messages.length,
    rows.filter((row) => Number(row.kind) === 0),
  );
  const changes: StatusChange[] = [];
  let applied = false;
  for (const row of rows) {
    if (Number(row.kind) === 1) applied = row.recorded === true;
    else if (Number(row.kind) === 2)
      changes.push({
        id: Number(row.id),
        tenantId: Number(row.tenant_id),
        portalId: Number(row.portal_id),
        status: Number(row.status),
        at: new Date(row.at!).toISOString(),
      });
  }
  return { outcomes, applied, changes };
}
