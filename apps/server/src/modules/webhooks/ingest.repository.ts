import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

/**
 * SQL of webhook ingestion. Every statement is set-based over `unnest` arrays:
 * a message costs the same handful of statements for 1 device or 5,000.
 *
 * Invariant relied on to find a device's open period through the
 * (tenant_id, device_id, started_at) index: the open period starts at
 * `devices.status_since` (every writer of periods keeps it so).
 */

export interface PortalForWebhook {
  tenant_id: number;
  webhook_secret_enc: string;
  previous_webhook_secret_enc: string | null;
  previous_secret_expires_at: Date | string | null;
}

/** The portal's tenant and secrets; undefined for an unknown or deleted portal (or a deleted tenant). */
export async function portalForWebhook(executor: Executor, portalId: number): Promise<PortalForWebhook | undefined> {
  const [row] = await queryRows<PortalForWebhook>(
    executor,
    sql`select p.tenant_id, p.webhook_secret_enc, p.previous_webhook_secret_enc, p.previous_secret_expires_at
          from portals p join tenants t on t.id = p.tenant_id
         where p.id = ${portalId} and p.deleted_at is null and t.deleted_at is null`,
  );
  return row;
}

/** Records the message id; false when this portal already accepted it (the caller then applies nothing). */
export async function recordMessage(
  executor: Executor,
  m: { tenantId: number; portalId: number; webhookId: string; deviceCount: number; now: Date },
): Promise<boolean> {
  const rows = await queryRows(
    executor,
    sql`insert into webhook_messages (tenant_id, portal_id, webhook_id, device_count, created_at)
        values (${m.tenantId}, ${m.portalId}, ${m.webhookId}, ${m.deviceCount}, ${m.now.toISOString()})
        on conflict do nothing
        returning webhook_id`,
  );
  return rows.length === 1;
}

export interface InventoryInput {
  externalIds: string[];
  names: string[];
  deviceTypes: number[];
  deviceModels: string[];
  /** Status and time of the device's oldest report in the message: what a new device starts with. */
  statuses: number[];
  ats: string[];
}

export interface InventoryRow {
  id: number;
  external_id: string;
  status: number;
  created: boolean;
}

/**
 * Creates unknown devices (state from their first report, with their first status
 * period) and updates name/type/model of known ones when they changed. ON CONFLICT
 * locks every known device of the message until commit (even when its row is not
 * rewritten), so concurrent messages for the same devices apply one after the
 * other; input sorted by external id avoids deadlocks.
 */
export async function upsertInventory(executor: Executor, scope: { tenantId: number; portalId: number; now: Date }, input: InventoryInput): Promise<InventoryRow[]> {
  const { tenantId, portalId } = scope;
  const now = scope.now.toISOString();
  const rows = await queryRows<InventoryRow>(
    executor,
    sql`with input as (
          select * from unnest(${sql.param(input.externalIds)}::text[], ${sql.param(input.names)}::text[],
                               ${sql.param(input.deviceTypes)}::smallint[], ${sql.param(input.deviceModels)}::text[],
                               ${sql.param(input.statuses)}::smallint[], ${sql.param(input.ats)}::timestamptz[])
                 as u(external_id, name, device_type, device_model, status, at)
        ), up as (
          insert into devices as d (tenant_id, portal_id, external_id, name, device_type, device_model, status,
                                    last_report_at, last_online, status_since, first_seen_at, created_at, updated_at)
          select ${tenantId}, ${portalId}, external_id, name, device_type, device_model, status,
                 at, case when status = 1 then at end, at, at, ${now}::timestamptz, ${now}::timestamptz
            from input order by external_id
          on conflict (tenant_id, portal_id, external_id) do update
             set name = excluded.name, device_type = excluded.device_type, device_model = excluded.device_model,
                 updated_at = excluded.updated_at
           where (d.name, d.device_type, d.device_model) is distinct from (excluded.name, excluded.device_type, excluded.device_model)
          returning d.id, d.external_id, d.status, d.status_since, (d.xmax = 0) as created
        ), first_periods as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select ${tenantId}, id, ${portalId}, status, status_since from up where created
        )
        select id, external_id, status, created from up
        union all
        -- Known devices whose inventory did not change are not rewritten (and so not returned above);
        -- the statement's snapshot still shows them, and ON CONFLICT locked them all the same.
        select d.id, d.external_id, d.status, false
          from devices d
         where d.tenant_id = ${tenantId} and d.portal_id = ${portalId} and d.external_id = any(${sql.param(input.externalIds)}::text[])
           and not exists (select 1 from up where up.external_id = d.external_id)`,
  );
  return rows.map((r) => ({ id: Number(r.id), external_id: r.external_id, status: Number(r.status), created: r.created }));
}

export interface ReportRound {
  deviceIds: number[];
  statuses: number[];
  ats: string[];
}

export interface StatusChange {
  id: number;
  status: number;
  at: string;
}

/**
 * Applies at most one report per device. A report newer than the device's state
 * (and than its removal) moves `last_report_at`; a status change (or a removed
 * device coming back) closes the open period at `at` and opens the new one. An
 * older report is only recorded in late_device_reports: history is never rewritten.
 */
export async function applyReportRound(
  executor: Executor,
  scope: { tenantId: number; portalId: number; now: Date },
  round: ReportRound,
): Promise<StatusChange[]> {
  const { tenantId, portalId } = scope;
  const now = scope.now.toISOString();
  const rows = await queryRows<{ id: number; status: number; at: Date | string }>(
    executor,
    sql`with r as (
          select * from unnest(${sql.param(round.deviceIds)}::int[], ${sql.param(round.statuses)}::smallint[], ${sql.param(round.ats)}::timestamptz[])
                 as r(device_id, status, at)
        ), cur as (
          select d.id, d.status as old_status, d.status_since, d.removed_at, r.status, r.at,
                 (r.at > d.last_report_at and (d.removed_at is null or r.at > d.removed_at)) as fresh
            from r join devices d on d.tenant_id = ${tenantId} and d.id = r.device_id
        ), late as (
          insert into late_device_reports (tenant_id, device_id, status, reported_at, created_at)
          select ${tenantId}, id, status, at, ${now}::timestamptz from cur where not fresh
        ), changed as (
          select * from cur where fresh and (status <> old_status or removed_at is not null)
        ), closed as (
          update device_status_periods p set ended_at = c.at
            from changed c
           where p.tenant_id = ${tenantId} and p.device_id = c.id and p.started_at >= c.status_since and p.ended_at is null
        ), opened as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select ${tenantId}, id, ${portalId}, status, at from changed
        ), updated as (
          update devices d
             set status = c.status,
                 last_report_at = c.at,
                 status_since = case when c.status <> c.old_status or c.removed_at is not null then c.at else d.status_since end,
                 last_online = case when c.status = 1 then c.at else d.last_online end,
                 removed_at = null,
                 updated_at = ${now}::timestamptz
            from cur c
           where c.fresh and d.tenant_id = ${tenantId} and d.id = c.id
        )
        select id, status, at from changed`,
  );
  return rows.map((r) => ({ id: Number(r.id), status: Number(r.status), at: new Date(r.at).toISOString() }));
}

/**
 * `device.removed`: hides the device from lists and counts and closes its open
 * period at the removal time; its history stays. Returns the device id, or
 * undefined when the portal has no such (unremoved) device.
 */
export async function removeDevice(executor: Executor, scope: { tenantId: number; portalId: number; now: Date }, externalId: string): Promise<number | undefined> {
  const { tenantId, portalId } = scope;
  const now = scope.now.toISOString();
  const [row] = await queryRows<{ id: number }>(
    executor,
    sql`with removed as (
          update devices d
             set removed_at = greatest(${now}::timestamptz, d.status_since), updated_at = ${now}::timestamptz
           where d.tenant_id = ${tenantId} and d.portal_id = ${portalId} and d.external_id = ${externalId} and d.removed_at is null
          returning d.id, d.status_since, d.removed_at
        ), closed as (
          update device_status_periods p set ended_at = r.removed_at
            from removed r
           where p.tenant_id = ${tenantId} and p.device_id = r.id and p.started_at >= r.status_since and p.ended_at is null
        )
        select id from removed`,
  );
  return row ? Number(row.id) : undefined;
}
