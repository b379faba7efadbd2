import type { Case, ServiceDevice } from '@vigil/contracts';
import { CASE_COMPLETED } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { IdMarkStore } from '../../db/id-marks.ts';
import { queryRows, type Executor, type Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import {
  DEVICE_COLUMNS,
  DEVICE_SORT,
  deviceConditions,
  toServiceDevice,
  type DeviceListQuery,
  type DeviceRow,
} from '../../db/service-devices.ts';
import {
  firstPageWithTotal,
  keptCaseTotal,
  laterPageWithTotal,
  listKey,
  markedPageWithTotal,
  portalNotDeleted,
  runKeptTotal,
} from '../../db/kept-counts.ts';
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

interface CaseRow {
  id: number;
  customerId: number;
  customerName: string;
  tenantName: string;
  offlineCount: number;
  caseType: number;
  createdAt: unknown;
  completedAt: unknown;
  alertId: number | null;
}

const toCase = (r: CaseRow): Case => ({ ...r, createdAt: isoOf(r.createdAt), completedAt: isoOrNull(r.completedAt) });

const CASE_FROM = sql`
  from cases c
  join portals p on p.tenant_id = c.tenant_id and p.id = c.portal_id and p.deleted_at is null
  join tenants t on t.id = c.tenant_id`;

const CASE_COLUMNS = sql`c.id, c.portal_id as "customerId", p.name as "customerName", t.name as "tenantName",
  c.offline_count as "offlineCount", c.case_type as "caseType", c.created_at as "createdAt",
  c.completed_at as "completedAt", c.alert_id as "alertId"`;

const CASE_SORT = {
  id: sql`c.id`,
  customerName: sql`lower(p.name)`,
  offlineCount: sql`c.offline_count`,
  caseType: sql`c.case_type`,
  createdAt: sql`c.created_at`,
};

export interface CaseListQuery {
  offset: number;
  limit: number;
  sort?: { field: keyof typeof CASE_SORT; dir: 'ASC' | 'DESC' };
  filter: { customerId?: number; caseType?: number; open?: boolean; q?: string };
}

/** `idMarks`: the app's case id marks (db/id-marks.ts), for later pages of a tenant's whole list in its default order. */
export async function listCases(
  tx: Executor,
  scope: Scope,
  q: CaseListQuery,
  portalId?: number,
  idMarks?: IdMarkStore,
): Promise<{ list: Case[]; count: number }> {
  const customerId = portalId ?? q.filter.customerId;
  const nameLike = q.filter.q ? containsPattern(q.filter.q) : undefined;
  // The total from the kept counts (per portal and status code), not a count over the cases; built only
  // where asked (a page from the id marks reads its total from them).
  const total = () =>
    keptCaseTotal(scope, { customerId, caseType: q.filter.caseType, open: q.filter.open, portalNameLike: nameLike }, CASE_COMPLETED);
  const key = () => listKey('cases', scope, { customerId, caseType: q.filter.caseType, open: q.filter.open });
  const own: SQL[] = [inTenant(scope, sql`c.tenant_id`)];
  if (customerId !== undefined) own.push(sql`c.portal_id = ${customerId}`);
  if (q.filter.caseType !== undefined) own.push(sql`c.case_type = ${q.filter.caseType}`);
  if (q.filter.open === true) own.push(sql`c.case_type < ${CASE_COMPLETED}`);
  if (q.filter.open === false) own.push(sql`c.case_type = ${CASE_COMPLETED}`);
  const pageSql = (plan: PagePlan, hasDeletedPortal: boolean, extra?: SQL): SQL => {
    const order = pageOrder(q.sort, CASE_SORT, { column: sql`c.id`, dir: 'DESC' }, plan.reverse);
    const columns = extra ? sql`${CASE_COLUMNS}, ${extra}` : CASE_COLUMNS;
    if (nameLike !== undefined || q.sort?.field === 'customerName') {
      // Conditions or order on the portal: one query over cases joined to portals.
      const where = allOf([...own, ...(nameLike !== undefined ? [sql`p.name ilike ${nameLike}`] : [])]);
      return sql`select ${columns} ${CASE_FROM} where ${where} ${order} ${limitOf(plan)}`;
    }
    // Deferred join: skip rows in the cases' own index order (from the nearer end), then read the page with its portal.
    return sql`select ${columns}
          from (select c.tenant_id, c.id from cases c where ${allOf([...own, portalNotDeleted('c', hasDeletedPortal)])} ${order} ${limitOf(plan)}) k
          join cases c on c.tenant_id = k.tenant_id and c.id = k.id
          join portals p on p.tenant_id = c.tenant_id and p.id = c.portal_id and p.deleted_at is null
          join tenants t on t.id = c.tenant_id
        ${order}`;
  };
  if (q.offset === 0) {
    const { rows, kept } = await firstPageWithTotal<CaseRow>(tx, total(), (column) => pageSql(planPage(q, undefined), true, column), key());
    return { list: rows.map(toCase), count: kept.count };
  }
  if (scope.kind === 'tenant' && own.length === 1 && nameLike === undefined && q.sort === undefined) {
    // The default order with no filter: the page found through the id marks (no long skip).
    const marked = await markedPageWithTotal<CaseRow>(
      tx,
      'case_id_marks',
      scope.tenantId,
      q,
      (skip, keptColumns) => {
        return sql`select ${CASE_COLUMNS}, ${keptColumns}
          from (select c.tenant_id, c.id from cases c
                 where ${allOf(own)} and c.id < ${skip.idBelow} order by c.id desc ${skip.limit}) k
          join cases c on c.tenant_id = k.tenant_id and c.id = k.id
          join portals p on p.tenant_id = c.tenant_id and p.id = c.portal_id and p.deleted_at is null
          join tenants t on t.id = c.tenant_id
        order by c.id desc`;
      },
      idMarks,
    );
    if (marked) return { list: marked.rows.map(toCase), count: marked.kept.count };
  }
  if (nameLike === undefined && q.sort?.field !== 'customerName') {
    // A later page with its total in one statement (without a deleted portal).
    const both = await laterPageWithTotal<CaseRow>(tx, total(), key(), q, (end, keptColumns) => {
      const order = (reverse: boolean) => pageOrder(q.sort, CASE_SORT, { column: sql`c.id`, dir: 'DESC' }, reverse);
      return sql`select ${CASE_COLUMNS}, ${keptColumns}
          from (select c.tenant_id, c.id from cases c where ${allOf(own)} ${order(end.reverse)} ${end.limit}) k
          join cases c on c.tenant_id = k.tenant_id and c.id = k.id
          join portals p on p.tenant_id = c.tenant_id and p.id = c.portal_id and p.deleted_at is null
          join tenants t on t.id = c.tenant_id
        ${order(false)}`;
    });
    if (both) return { list: both.rows.map(toCase), count: both.kept.count };
  }
  const kept = await runKeptTotal(tx, total());
  const plan = planPage(q, kept.count);
  const rows = await queryRows<CaseRow>(tx, pageSql(plan, kept.hasDeletedPortal));
  return { list: inPageOrder(plan, rows).map(toCase), count: kept.count };
}

export async function findCase(tx: Tx, scope: Scope, id: number): Promise<Case | undefined> {
  const [row] = await queryRows<CaseRow>(
    tx,
    sql`select ${CASE_COLUMNS} ${CASE_FROM} where ${inTenant(scope, sql`c.tenant_id`)} and c.id = ${id}`,
  );
  return row && toCase(row);
}

/** Count of open cases (status below Completed) per status code, from the kept counts (a few rows per portal). */
export async function countOpenCasesByType(tx: Executor, scope: Scope): Promise<Map<number, number>> {
  const rows = await queryRows<{ caseType: number; count: number }>(
    tx,
    sql`select k.case_type as "caseType", sum(k.total)::int as count
          from case_counts k join portals p on p.tenant_id = k.tenant_id and p.id = k.portal_id and p.deleted_at is null
         where ${inTenant(scope, sql`k.tenant_id`)} and k.case_type < ${CASE_COMPLETED} group by k.case_type`,
  );
  return new Map(rows.map((r) => [r.caseType, r.count]));
}

/** Cases completed (and still so) since the start of the current calendar quarter in each tenant's time zone. */
export async function countCompletedThisQuarter(tx: Executor, scope: Scope, now: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    tx,
    sql`select count(*)::int as count ${CASE_FROM}
        where ${inTenant(scope, sql`c.tenant_id`)} and c.case_type = ${CASE_COMPLETED} and c.completed_at <= ${at(now)}
          and c.completed_at >= (date_trunc('quarter', ${at(now)} at time zone t.timezone) at time zone t.timezone)`,
  );
  return row?.count ?? 0;
}

/** Locks the case row for a status change; undefined when the caller cannot see it. */
export async function lockCaseType(tx: Tx, scope: Scope, id: number): Promise<{ tenantId: number; caseType: number } | undefined> {
  const [row] = await queryRows<{ tenantId: number; caseType: number }>(
    tx,
    sql`select c.tenant_id as "tenantId", c.case_type as "caseType" ${CASE_FROM}
        where ${inTenant(scope, sql`c.tenant_id`)} and c.id = ${id} for update of c`,
  );
  return row;
}

export async function setCaseType(
  tx: Tx,
  tenantId: number,
  id: number,
  caseType: number,
  completedAt: Date | null,
  now: Date,
): Promise<void> {
  await tx.execute(sql`update cases set case_type = ${caseType}, completed_at = ${completedAt ? at(completedAt) : null}, updated_at = ${at(now)}
                       where tenant_id = ${tenantId} and id = ${id}`);
}

/** A status change that neither completes nor reopens: completed_at stays as it is. */
export async function touchCaseType(tx: Tx, tenantId: number, id: number, caseType: number, now: Date): Promise<void> {
  await tx.execute(sql`update cases set case_type = ${caseType}, updated_at = ${at(now)} where tenant_id = ${tenantId} and id = ${id}`);
}

/** Completing a case lets its devices be captured by a later case. */
export async function releaseCaseDevices(tx: Tx, tenantId: number, caseId: number, now: Date): Promise<void> {
  await tx.execute(
    sql`update case_devices set released_at = ${at(now)} where tenant_id = ${tenantId} and case_id = ${caseId} and released_at is null`,
  );
  await tx.execute(
    sql`update devices set open_case_id = null, updated_at = ${at(now)} where tenant_id = ${tenantId} and open_case_id = ${caseId}`,
  );
}

/** Every device the case ever held (released ones included), as the devices tables show them. */
export async function listCaseDevices(
  tx: Tx,
  scope: Scope,
  caseId: number,
  q: DeviceListQuery,
): Promise<{ list: ServiceDevice[]; count: number }> {
  const from = sql`from case_devices cd
    join devices d on d.tenant_id = cd.tenant_id and d.id = cd.device_id
    join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id`;
  const where = allOf([inTenant(scope, sql`cd.tenant_id`), sql`cd.case_id = ${caseId}`, ...deviceConditions(q.filter)]);
  const rows = await queryRows<DeviceRow>(
    tx,
    sql`select ${DEVICE_COLUMNS} ${from} where ${where} ${orderBy(q.sort, DEVICE_SORT, sql`d.id`)} ${pageOf(q)}`,
  );
  const [total] = await queryRows<{ count: number }>(tx, sql`select count(*)::int as count ${from} where ${where}`);
  return { list: rows.map(toServiceDevice), count: total?.count ?? 0 };
}

/** The portal if the scope sees it and it is not deleted. */
export async function findVisiblePortal(
  executor: Executor,
  scope: Scope,
  portalId: number,
): Promise<{ tenantId: number; id: number; name: string } | undefined> {
  const [portal] = await queryRows<{ tenantId: number; id: number; name: string }>(
    executor,
    sql`select p.tenant_id as "tenantId", p.id, p.name from portals p where ${inTenant(scope, sql`p.tenant_id`)} and p.id = ${portalId} and p.deleted_at is null`,
  );
  return portal;
}
