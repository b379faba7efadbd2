import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { ONLINE } from '../../db/codes.ts';

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

export interface MessageToRecord {
  tenantId: number;
  portalId: number;
  webhookId: string;
  deviceCount: number;
  /** The sealed secret that verified the signature (possibly read from a cache before this transaction). */
  secretEnc: string;
}

export type RecordOutcome = 'recorded' | 'duplicate' | 'refused';

/**
 * Records the ids of a group of verified messages in one statement. 'duplicate': this portal
 * already accepted the id (nothing is applied again). 'refused': since verification the portal or
 * its tenant was deleted, or the secret that verified is no longer valid (rotated out, grace
 * period over); checked here, in the applying transaction, so cached credentials are never trusted
 * beyond what the database says at commit. Rows are inserted in (portal, id) order so concurrent
 * groups (PostgreSQL) wait on each other's ids in one order, never in a cycle.
 */
export async function recordMessages(executor: Executor, messages: MessageToRecord[], now: Date): Promise<RecordOutcome[]> {
  const rows = await queryRows<{ i: number; recorded: boolean }>(
    executor,
    sql`with ${recordingCtes(messages, now.toISOString())}
        select live.i, ${RECORDED} as recorded from live`,
  );
  return outcomesOf(messages.length, rows);
}

/**
 * The CTEs that record a group's message ids, shared by recordMessages and the one-pass statement
 * (one-pass.repository.ts): `m` the messages (with `i`, their index in the group), `live` those
 * whose portal and tenant still exist and whose verifying secret is still valid at `at`, `ins`
 * the ids inserted (a live message missing from it is a duplicate). To follow a `with`.
 */
export function recordingCtes(messages: MessageToRecord[], at: string): SQL {
  return sql`m as (
          select * from unnest(${sql.param(messages.map((_, i) => i))}::int[], ${sql.param(messages.map((m) => m.tenantId))}::int[],
                               ${sql.param(messages.map((m) => m.portalId))}::int[], ${sql.param(messages.map((m) => m.webhookId))}::text[],
                               ${sql.param(messages.map((m) => m.deviceCount))}::int[], ${sql.param(messages.map((m) => m.secretEnc))}::text[])
                 as m(i, tenant_id, portal_id, webhook_id, device_count, secret_enc)
        ), live as (
          select m.* from m
            join portals p on p.tenant_id = m.tenant_id and p.id = m.portal_id and p.deleted_at is null
            join tenants t on t.id = p.tenant_id and t.deleted_at is null
           where p.webhook_secret_enc = m.secret_enc
              or (p.previous_webhook_secret_enc = m.secret_enc and p.previous_secret_expires_at > ${at}::timestamptz)
        ), ins as (
          insert into webhook_messages (tenant_id, portal_id, webhook_id, device_count, created_at)
          select tenant_id, portal_id, webhook_id, device_count, ${at}::timestamptz from live order by portal_id, webhook_id
          on conflict do nothing
          returning portal_id, webhook_id
        )`;
}

/** Per row of `live` (recordingCtes): whether this statement recorded its id (false: a duplicate). */
export const RECORDED = sql`exists (select 1 from ins where ins.portal_id = live.portal_id and ins.webhook_id = live.webhook_id)`;

/** The outcome of each of `count` messages from the rows of `live` (i, recorded); a message without a row was refused. */
export function outcomesOf(count: number, rows: { i: number | null; recorded: boolean | null }[]): RecordOutcome[] {
  const outcomes: RecordOutcome[] = Array.from({ length: count }, () => 'refused');
  for (const row of rows) outcomes[Number(row.i)] = row.recorded ? 'recorded' : 'duplicate';
  return outcomes;
}

/** Devices of one or several portals (parallel arrays), one entry per device. */
export interface InventoryInput {
  tenantIds: number[];
  portalIds: number[];
  externalIds: string[];
  names: string[];
  deviceTypes: number[];
  deviceModels: string[];
  /** Status and time of the device's first report in application order: what a new device starts with. */
  statuses: number[];
  ats: string[];
}

export interface InventoryRow {
  id: number;
  tenant_id: number;
  portal_id: number;
  external_id: string;
  status: number;
  created: boolean;
}

/**
 * Creates unknown devices (state from their first report, with their first status
 * period) and updates name/type/model of known ones when they changed. ON CONFLICT
 * locks every known device of the input until commit (even when its row is not
 * rewritten), so concurrent groups for the same devices apply one after the
 * other; rows go in (tenant, portal, external id) order to avoid deadlocks.
 */
export async function upsertInventory(executor: Executor, now: Date, input: InventoryInput): Promise<InventoryRow[]> {
  const at = now.toISOString();
  const rows = await queryRows<InventoryRow>(
    executor,
    sql`with input as (
          select * from unnest(${sql.param(input.tenantIds)}::int[], ${sql.param(input.portalIds)}::int[],
                               ${sql.param(input.externalIds)}::text[], ${sql.param(input.names)}::text[],
                               ${sql.param(input.deviceTypes)}::smallint[], ${sql.param(input.deviceModels)}::text[],
                               ${sql.param(input.statuses)}::smallint[], ${sql.param(input.ats)}::timestamptz[])
                 as u(tenant_id, portal_id, external_id, name, device_type, device_model, status, at)
        ), up as (
          insert into devices as d (tenant_id, portal_id, external_id, name, device_type, device_model, status,
                                    last_report_at, last_online, status_since, first_seen_at, created_at, updated_at)
          select tenant_id, portal_id, external_id, name, device_type, device_model, status,
                 at, case when status = ${ONLINE} then at end, at, at, ${at}::timestamptz, ${at}::timestamptz
            from input order by tenant_id, portal_id, external_id
          on conflict (tenant_id, portal_id, external_id) do update
             set name = excluded.name, device_type = excluded.device_type, device_model = excluded.device_model,
                 updated_at = excluded.updated_at
           where (d.name, d.device_type, d.device_model) is distinct from (excluded.name, excluded.device_type, excluded.device_model)
          returning d.id, d.tenant_id, d.portal_id, d.external_id, d.status, d.status_since, (d.xmax = 0) as created
        ), first_periods as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select tenant_id, id, portal_id, status, status_since from up where created
        )
        select id, tenant_id, portal_id, external_id, status, created from up
        union all
        -- Known devices whose inventory did not change are not rewritten (and so not returned above);
        -- the statement's snapshot still shows them, and ON CONFLICT locked them all the same. One
        -- index lookup per device (LATERAL ... LIMIT 1 is never turned into a join): as a join,
        -- PostgreSQL hashed the whole devices table for a 100-device message (11 of 13.6 ms at S).
        select d.id, d.tenant_id, d.portal_id, d.external_id, d.status, false
          from input i
         cross join lateral (
               select d.id, d.tenant_id, d.portal_id, d.external_id, d.status from devices d
                where d.tenant_id = i.tenant_id and d.portal_id = i.portal_id and d.external_id = i.external_id
                limit 1) d
         where not exists (select 1 from up where up.tenant_id = d.tenant_id and up.id = d.id)`,
  );
  const found = rows.map((r) => ({
    id: Number(r.id),
    tenant_id: Number(r.tenant_id),
    portal_id: Number(r.portal_id),
    external_id: r.external_id,
    status: Number(r.status),
    created: r.created,
  }));
  return found.length === input.externalIds.length ? found : [...found, ...(await rereadMissing(executor, input, found))];
}

/**
 * A device inserted by a concurrent transaction that committed while this statement
 * waited on its unique key is locked by ON CONFLICT but invisible to the statement's
 * own (older) snapshot on PostgreSQL, so the query above cannot return it. A new
 * statement takes a fresh snapshot and sees it; without this its report was lost.
 */
async function rereadMissing(executor: Executor, input: InventoryInput, found: InventoryRow[]): Promise<InventoryRow[]> {
  const seen = new Set(found.map((r) => `${r.tenant_id}/${r.portal_id}/${r.external_id}`));
  const missing = input.externalIds
    .map((_, i) => i)
    .filter((i) => !seen.has(`${input.tenantIds[i]}/${input.portalIds[i]}/${input.externalIds[i]}`));
  const rows = await queryRows<InventoryRow>(
    executor,
    sql`select d.id, d.tenant_id, d.portal_id, d.external_id, d.status, false as created
          from unnest(${sql.param(missing.map((i) => input.tenantIds[i]))}::int[], ${sql.param(missing.map((i) => input.portalIds[i]))}::int[],
                      ${sql.param(missing.map((i) => input.externalIds[i]))}::text[]) as m(tenant_id, portal_id, external_id)
          join devices d on d.tenant_id = m.tenant_id and d.portal_id = m.portal_id and d.external_id = m.external_id
           for update of d`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    tenant_id: Number(r.tenant_id),
    portal_id: Number(r.portal_id),
    external_id: r.external_id,
    status: Number(r.status),
    created: false,
  }));
}

/** At most one report per device (parallel arrays), devices of one or several portals. */
export interface ReportRound {
  tenantIds: number[];
  portalIds: number[];
  deviceIds: number[];
  statuses: number[];
  ats: string[];
}

export interface StatusChange {
  id: number;
  tenantId: number;
  portalId: number;
  status: number;
  at: string;
}

/**
 * Applies at most one report per device. A report newer than the device's state
 * (and than its removal) moves `last_report_at`; a status change (or a removed
 * device coming back) closes the open period at `at` and opens the new one. An
 * older report is only recorded in late_device_reports: history is never rewritten.
 *
 * The open period is found through periods_device_idx (tenant, device, started_at) in the open
 * periods' partition: `p.ended_at is null` lets the planner leave out every partition of closed
 * periods (schema/monitoring.ts), and no index offers it ended_at there (periods_tenant_ended_idx
 * holds closed periods only, migration 0014). Without statistics (PGlite gathers none by itself;
 * jobs/pglite-maintenance.job.ts does once a table has changed enough), with the ended index holding
 * the open periods too it took that index and read every open period of the tenant per message
 * (measured: 280 ms for one device among 50,000).
 */
export async function applyReportRound(executor: Executor, now: Date, round: ReportRound): Promise<StatusChange[]> {
  const at = now.toISOString();
  const rows = await queryRows<{ id: number; tenant_id: number; portal_id: number; status: number; at: Date | string }>(
    executor,
    sql`with r as (
          select * from unnest(${sql.param(round.tenantIds)}::int[], ${sql.param(round.portalIds)}::int[], ${sql.param(round.deviceIds)}::int[],
                               ${sql.param(round.statuses)}::smallint[], ${sql.param(round.ats)}::timestamptz[])
                 as r(tenant_id, portal_id, device_id, status, at)
        ), cur as (
          select d.tenant_id, r.portal_id, d.id, d.status as old_status, d.status_since, d.maintenance_since, d.removed_at, r.status, r.at,
                 (r.at > d.last_report_at and (d.removed_at is null or r.at > d.removed_at)) as fresh,
                 ${CHANGE_AT} as change_at
            from r join devices d on d.tenant_id = r.tenant_id and d.id = r.device_id
        ), late as (
          insert into late_device_reports (tenant_id, device_id, status, reported_at, created_at)
          select tenant_id, id, status, at, ${at}::timestamptz from cur where not fresh
        ), changed as (
          select * from cur where fresh and (status <> old_status or removed_at is not null)
        ), ${PERIOD_CHANGES}, updated as (
          update devices d
             set status = c.status,
                 last_report_at = c.at,
                 status_since = case when c.status <> c.old_status or c.removed_at is not null then c.change_at else d.status_since end,
                 last_online = case when c.status = ${ONLINE} then c.at else d.last_online end,
                 removed_at = null,
                 updated_at = ${at}::timestamptz
            from cur c
           where c.fresh and d.tenant_id = c.tenant_id and d.id = c.id
        )
        select id, tenant_id, portal_id, status, change_at as at from changed`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    tenantId: Number(r.tenant_id),
    portalId: Number(r.portal_id),
    status: Number(r.status),
    at: new Date(r.at).toISOString(),
  }));
}

/**
 * When a fresh report's status change takes effect: at its `at`, but never before the device's
 * `status_since`. A report newer than the last one can still be older than the last change when that
 * change was not a report: the offline sweep's `last_report_at + timeout`, or the end of a maintenance
 * window. A delayed report (a device sending what it buffered, a retried delivery) then changes the
 * status at `status_since`: the period begun there closes at once (zero length, counting nowhere) and
 * history is not rewritten (docs/monitoring.md "Device state and history"). `r` is the report, `d`
 * the device (null for a new one: its `at`).
 */
export const CHANGE_AT = sql`greatest(r.at, d.status_since)`;

/**
 * The CTEs `closed` and `opened` shared by applyReportRound and the one-pass statement: for each row
 * of a CTE `changed` (tenant_id, id, portal_id, status, change_at, status_since, maintenance_since: a
 * device whose status changes at `change_at`, CHANGE_AT), the open period is closed at `change_at` and
 * the new one opened. The open period is found through periods_device_idx (see applyReportRound). A
 * device in maintenance (maintenance_since set, docs/maintenance.md) keeps its open status-2 period:
 * its row moves, its history does not (maintenance/reconcile.repository.ts writes the period of its
 * status when it leaves). A removed device has no maintenance (removal clears it), so a return always
 * opens a period. To follow a CTE, before another.
 */
export const PERIOD_CHANGES = sql`closed as (
          update device_status_periods p set ended_at = c.change_at
            from changed c
           where c.maintenance_since is null
             and p.tenant_id = c.tenant_id and p.device_id = c.id and p.started_at >= c.status_since
             and p.ended_at is null
        ), opened as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select tenant_id, id, portal_id, status, change_at from changed where maintenance_since is null
        )`;

/**
 * `device.removed`: hides the device from lists and counts and closes its open
 * period at the removal time; its history stays. Returns the device id, or
 * undefined when the portal has no such (unremoved) device.
 */
export async function removeDevice(
  executor: Executor,
  scope: { tenantId: number; portalId: number; now: Date },
  externalId: string,
): Promise<number | undefined> {
  const { tenantId, portalId } = scope;
  const now = scope.now.toISOString();
  const [row] = await queryRows<{ id: number }>(
    executor,
    sql`with old as (
          select d.id, d.status_since, d.maintenance_since from devices d
           where d.tenant_id = ${tenantId} and d.portal_id = ${portalId} and d.external_id = ${externalId} and d.removed_at is null
        ), removed as (
          -- a device in maintenance leaves it: its open (status-2) period is the one closed (docs/maintenance.md)
          update devices d
             set removed_at = greatest(${now}::timestamptz, d.status_since, coalesce(d.maintenance_since, d.status_since)),
                 maintenance_since = null, updated_at = ${now}::timestamptz
            from old o
           where d.tenant_id = ${tenantId} and d.id = o.id and d.removed_at is null
          returning d.id, d.removed_at
        ), closed as (
          update device_status_periods p set ended_at = r.removed_at
            from removed r join old o on o.id = r.id
           where p.tenant_id = ${tenantId} and p.device_id = r.id
             and p.started_at >= least(o.status_since, coalesce(o.maintenance_since, o.status_since))
             and p.ended_at is null -- through periods_device_idx (see applyReportRound)
        )
        select id from removed`,
  );
  return row ? Number(row.id) : undefined;
}
