import type { Alert, AlertDevice } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor, type Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { EventBus } from '../../events/bus.ts';
import { TOPICS, type AlertOpenedEvent } from '../../events/topics.ts';
import { DEVICE_COLUMNS, DEVICE_SORT, deviceConditions, toServiceDevice, type DeviceListQuery } from '../../db/service-devices.ts';
import {
  firstPageWithTotal,
  keptAlertTotal,
  laterPageWithTotal,
  listKey,
  markedPageWithTotal,
  portalNotDeleted,
  runKeptTotal,
} from '../../db/kept-counts.ts';
import type { IdMarkStore } from '../../db/id-marks.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';
import { OPEN_OFFLINE_ALERT } from './offline-alert-rule.repository.ts';
import {
  allOf,
  at,
  inPageOrder,
  limitOf,
  pageOrder,
  planPage,
  type PagePlan,
  containsPattern,
  inTenant,
  isoOf,
  isoOrNull,
  orderBy,
  pageOf,
} from '../../db/sql-list.ts';

/** Alert age after which an open alert shows the error dot (docs/decisions.md 29). */
export const ALERT_ESCALATION_HOURS = 24;

interface AlertRow {
  id: number;
  customerId: number;
  customerName: string;
  tenantName: string;
  alertType: number;
  offlineCount: number;
  status: number;
  createdAt: unknown;
  resolvedAt: unknown;
  licenseId: number | null;
  ackedAt: unknown;
  ackedByName: string | null;
}

const toAlert = (r: AlertRow): Alert => ({
  ...r,
  createdAt: isoOf(r.createdAt),
  resolvedAt: isoOrNull(r.resolvedAt),
  ackedAt: isoOrNull(r.ackedAt),
});

/** 0 resolved, 2 open and critical or older than 24 hours, else 1: computed with the clock at read time. */
const statusAt = (now: Date): SQL => sql`(case when a.resolved_at is not null then 0
  when a.critical = 1 or a.created_at < ${at(now)} - make_interval(hours => ${ALERT_ESCALATION_HOURS}) then 2 else 1 end)`;

const ALERT_FROM = sql`from alerts a
  join portals p on p.tenant_id = a.tenant_id and p.id = a.portal_id and p.deleted_at is null
  join tenants t on t.id = a.tenant_id`;

const alertColumns = (now: Date) => sql`a.id, a.portal_id as "customerId", p.name as "customerName", t.name as "tenantName",
  a.alert_type as "alertType", a.offline_count as "offlineCount", ${statusAt(now)} as status,
  a.created_at as "createdAt", a.resolved_at as "resolvedAt", a.license_id as "licenseId",
  a.acked_at as "ackedAt", a.acked_by_name as "ackedByName"`;

export interface AlertListQuery {
  offset: number;
  limit: number;
  sort?: { field: 'id' | 'createdAt' | 'customerName' | 'alertType' | 'offlineCount' | 'status'; dir: 'ASC' | 'DESC' };
  filter: { customerId?: number; alertType?: number; status?: number; q?: string };
}

/** `idMarks`: the app's alert id marks (db/id-marks.ts), for later pages of a tenant's whole list in its default order. */
export async function listAlerts(
  tx: Executor,
  scope: Scope,
  q: AlertListQuery,
  now: Date,
  idMarks?: IdMarkStore,
): Promise<{ list: Alert[]; count: number }> {
  const nameLike = q.filter.q ? containsPattern(q.filter.q) : undefined;
  const own: SQL[] = [inTenant(scope, sql`a.tenant_id`)];
  if (q.filter.customerId !== undefined) own.push(sql`a.portal_id = ${q.filter.customerId}`);
  if (q.filter.alertType !== undefined) own.push(sql`a.alert_type = ${q.filter.alertType}`);
  // The status depends on the clock (escalation after 24 h): no kept count for it.
  if (q.filter.status !== undefined) own.push(sql`${statusAt(now)} = ${q.filter.status}`);
  const sort = {
    id: sql`a.id`,
    createdAt: sql`a.created_at`,
    customerName: sql`lower(p.name)`,
    alertType: sql`a.alert_type`,
    offlineCount: sql`a.offline_count`,
    status: statusAt(now),
  };
  const withPortal = allOf([...own, ...(nameLike !== undefined ? [sql`p.name ilike ${nameLike}`] : [])]);
  const pageSql = (plan: PagePlan, hasDeletedPortal: boolean, extra?: SQL): SQL => {
    const order = pageOrder(q.sort, sort, { column: sql`a.id`, dir: 'DESC' }, plan.reverse);
    const columns = extra ? sql`${alertColumns(now)}, ${extra}` : alertColumns(now);
    if (nameLike !== undefined || q.sort?.field === 'customerName') {
      // Conditions or order on the portal: one query over alerts joined to portals.
      return sql`select ${columns} ${ALERT_FROM} where ${withPortal} ${order} ${limitOf(plan)}`;
    }
    // Deferred join: skip rows in the alerts' own index order (from the nearer end), then read the page with its portal.
    return sql`select ${columns}
          from (select a.tenant_id, a.id from alerts a where ${allOf([...own, portalNotDeleted('a', hasDeletedPortal)])} ${order} ${limitOf(plan)}) k
          join alerts a on a.tenant_id = k.tenant_id and a.id = k.id
          join portals p on p.tenant_id = a.tenant_id and p.id = a.portal_id and p.deleted_at is null
          join tenants t on t.id = a.tenant_id
        ${order}`;
  };
  // Built only where asked: a page from the id marks reads its total from them.
  const total = () => keptAlertTotal(scope, { customerId: q.filter.customerId, alertType: q.filter.alertType, portalNameLike: nameLike });
  if (q.filter.status === undefined && q.offset === 0) {
    const { rows, kept } = await firstPageWithTotal<AlertRow>(
      tx,
      total(),
      (column) => pageSql(planPage(q, undefined), true, column),
      listKey('alerts', scope, q.filter),
    );
    return { list: rows.map(toAlert), count: kept.count };
  }
  if (scope.kind === 'tenant' && own.length === 1 && nameLike === undefined && q.sort === undefined) {
    // The default order with no filter: the page found through the id marks (no long skip).
    const marked = await markedPageWithTotal<AlertRow>(
      tx,
      'alert_id_marks',
      scope.tenantId,
      q,
      (skip, keptColumns) => {
        return sql`select ${alertColumns(now)}, ${keptColumns}
          from (select a.tenant_id, a.id from alerts a
                 where ${allOf(own)} and a.id < ${skip.idBelow} order by a.id desc ${skip.limit}) k
          join alerts a on a.tenant_id = k.tenant_id and a.id = k.id
          join portals p on p.tenant_id = a.tenant_id and p.id = a.portal_id and p.deleted_at is null
          join tenants t on t.id = a.tenant_id
        order by a.id desc`;
      },
      idMarks,
    );
    if (marked) return { list: marked.rows.map(toAlert), count: marked.kept.count };
  }
  if (q.filter.status === undefined && nameLike === undefined && q.sort?.field !== 'customerName') {
    // A later page with its total in one statement (without a deleted portal).
    const both = await laterPageWithTotal<AlertRow>(tx, total(), listKey('alerts', scope, q.filter), q, (end, keptColumns) => {
      const order = (reverse: boolean) => pageOrder(q.sort, sort, { column: sql`a.id`, dir: 'DESC' }, reverse);
      return sql`select ${alertColumns(now)}, ${keptColumns}
          from (select a.tenant_id, a.id from alerts a where ${allOf(own)} ${order(end.reverse)} ${end.limit}) k
          join alerts a on a.tenant_id = k.tenant_id and a.id = k.id
          join portals p on p.tenant_id = a.tenant_id and p.id = a.portal_id and p.deleted_at is null
          join tenants t on t.id = a.tenant_id
        ${order(false)}`;
    });
    if (both) return { list: both.rows.map(toAlert), count: both.kept.count };
  }
  const kept = await runKeptTotal(tx, total());
  const count =
    q.filter.status === undefined
      ? kept.count
      : ((await queryRows<{ count: number }>(tx, sql`select count(*)::int as count ${ALERT_FROM} where ${withPortal}`))[0]?.count ?? 0);
  const plan = planPage(q, count);
  const rows = await queryRows<AlertRow>(tx, pageSql(plan, kept.hasDeletedPortal));
  return { list: inPageOrder(plan, rows).map(toAlert), count };
}

export async function findAlert(tx: Tx, scope: Scope, id: number, now: Date): Promise<Alert | undefined> {
  const [row] = await queryRows<AlertRow>(
    tx,
    sql`select ${alertColumns(now)} ${ALERT_FROM} where ${inTenant(scope, sql`a.tenant_id`)} and a.id = ${id}`,
  );
  return row && toAlert(row);
}

/** The alert's tenant and portal, for work on it (case from alert); undefined when not visible. */
export async function alertOwner(tx: Tx, scope: Scope, id: number): Promise<{ tenantId: number; portalId: number } | undefined> {
  const [row] = await queryRows<{ tenantId: number; portalId: number }>(
    tx,
    sql`select a.tenant_id as "tenantId", a.portal_id as "portalId" ${ALERT_FROM} where ${inTenant(scope, sql`a.tenant_id`)} and a.id = ${id}`,
  );
  return row;
}

export async function listAlertDevices(
  tx: Tx,
  scope: Scope,
  alertId: number,
  q: DeviceListQuery,
): Promise<{ list: AlertDevice[]; count: number }> {
  const from = sql`from alert_devices ad
    join devices d on d.tenant_id = ad.tenant_id and d.id = ad.device_id
    join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id`;
  const where = allOf([inTenant(scope, sql`ad.tenant_id`), sql`ad.alert_id = ${alertId}`, ...deviceConditions(q.filter)]);
  const rows = await queryRows<Parameters<typeof toServiceDevice>[0]>(
    tx,
    sql`select ${DEVICE_COLUMNS} ${from} where ${where} ${orderBy(q.sort, DEVICE_SORT, sql`d.id`)} ${pageOf(q)}`,
  );
  const [total] = await queryRows<{ count: number }>(tx, sql`select count(*)::int as count ${from} where ${where}`);
  return { list: rows.map((r) => ({ ...toServiceDevice(r), isInCase: r.caseId !== null })), count: total?.count ?? 0 };
}

export interface NewAlert {
  tenantId: number;
  portalId: number;
  customerName: string;
  alertType: number;
  offlineCount: number;
  licenseId?: number;
  critical?: boolean;
  now: Date;
}

/** Inserts an alert and announces it (`alerts.opened`), delivered when the transaction commits. */
export async function insertAlert(tx: Tx, bus: EventBus, a: NewAlert): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into alerts (tenant_id, portal_id, alert_type, offline_count, license_id, critical, created_at, updated_at)
        values (${a.tenantId}, ${a.portalId}, ${a.alertType}, ${a.offlineCount}, ${a.licenseId ?? null}, ${a.critical ? 1 : 0}, ${at(a.now)}, ${at(a.now)})
        returning id`,
  );
  const alertId = row.id;
  const event: AlertOpenedEvent = {
    tenantId: a.tenantId,
    alertId,
    portalId: a.portalId,
    customerName: a.customerName,
    alertType: a.alertType,
    offlineCount: a.offlineCount,
  };
  await bus.publish(TOPICS.alertOpened, event, tx);
  return alertId;
}

/** Holds devices in an alert and sets its count to all it holds. */
export async function holdDevices(tx: Tx, tenantId: number, alertId: number, deviceIds: number[]): Promise<void> {
  if (deviceIds.length > 0) {
    await tx.execute(sql`insert into alert_devices (tenant_id, alert_id, device_id)
      select ${tenantId}, ${alertId}, d.id from devices d where d.tenant_id = ${tenantId} and d.id in (${sql.join(
        deviceIds.map((id) => sql`${id}`),
        sql`, `,
      )}) on conflict do nothing`);
  }
  await tx.execute(sql`update alerts a set offline_count = (select count(*) from alert_devices ad where ad.tenant_id = a.tenant_id and ad.alert_id = a.id)
    where a.tenant_id = ${tenantId} and a.id = ${alertId}`);
}

/** The portal's open Device Offline alert (the oldest, should the rule ever have left two). */
export async function openOfflineAlertOf(tx: Tx, tenantId: number, portalId: number): Promise<number | undefined> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`select a.id from alerts a where a.tenant_id = ${tenantId} and a.portal_id = ${portalId} and ${OPEN_OFFLINE_ALERT} order by a.id limit 1`,
  );
  return row?.id;
}

/** Of these devices, those no open Device Offline alert holds. */
export async function unheldDeviceIds(tx: Tx, tenantId: number, deviceIds: number[]): Promise<number[]> {
  if (deviceIds.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select d.id from devices d
        where d.tenant_id = ${tenantId} and d.id in (${sql.join(
          deviceIds.map((id) => sql`${id}`),
          sql`, `,
        )})
          and not exists (select 1 from alert_devices ad join alerts a on a.tenant_id = ad.tenant_id and a.id = ad.alert_id
                           where ad.tenant_id = ${tenantId} and ad.device_id = d.id and ${OPEN_OFFLINE_ALERT})
        order by d.id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Acknowledges an open, not yet acknowledged alert: now, the user and the user's name as it is now.
 * Answers whether it did (false: acknowledged before, resolved, or not visible).
 */
export async function ackAlert(tx: Tx, scope: Scope, id: number, user: { userId: number; userName: string }, now: Date): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update alerts a set acked_at = ${at(now)}, acked_by_user_id = ${user.userId},
          acked_by_name = coalesce((select u.name from users u where u.id = ${user.userId}), ${user.userName}), updated_at = ${at(now)}
        where ${inTenant(scope, sql`a.tenant_id`)} and a.id = ${id} and a.acked_at is null and a.resolved_at is null
        returning a.id`,
  );
  return rows.length > 0;
}

/** The portal's offline devices (status 0, not removed). */
export async function offlineDeviceIds(tx: Tx, tenantId: number, portalId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select op.device_id as id from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE} and op.tenant_id = ${tenantId} and op.portal_id = ${portalId} order by op.device_id`,
  );
  return rows.map((r) => r.id);
}
