import { and, asc, count, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { devices, portals, reports, tenants } from '../../db/schema/index.ts';
import { COMPLETED_CASE } from '../../db/codes.ts';

/** Rows a caller may see: one tenant, or every tenant (superAdmin) when undefined. */
export type TenantFilter = number | undefined;

export interface ReportRow {
  id: number;
  tenantId: number;
  customerId: number;
  customerName: string;
  period: number;
  config: number[];
  createdAt: Date;
  tenantName: string;
}

const reportColumns = {
  id: reports.id,
  tenantId: reports.tenantId,
  customerId: reports.portalId,
  customerName: portals.name,
  period: reports.period,
  config: reports.config,
  createdAt: reports.createdAt,
  tenantName: tenants.name,
};

const SORTS = {
  id: reports.id,
  customerName: portals.name,
  period: reports.period,
  createdAt: reports.createdAt,
  tenantName: tenants.name,
} as const;
export type ReportSort = keyof typeof SORTS;

export interface ReportListQuery {
  offset: number;
  limit: number;
  sort?: { field: ReportSort; dir: 'ASC' | 'DESC' };
  filter: { q?: string; customerId?: number; period?: number };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function reportConditions(tenantId: TenantFilter, filter: ReportListQuery['filter']): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (tenantId !== undefined) conds.push(eq(reports.tenantId, tenantId));
  if (filter.q) conds.push(ilike(portals.name, `%${escapeLike(filter.q)}%`));
  if (filter.customerId !== undefined) conds.push(eq(reports.portalId, filter.customerId));
  if (filter.period !== undefined) conds.push(eq(reports.period, filter.period));
  return and(...conds);
}

export async function listReports(
  tx: Executor,
  tenantId: TenantFilter,
  query: ReportListQuery,
): Promise<{ list: ReportRow[]; count: number }> {
  const where = reportConditions(tenantId, query.filter);
  const sortColumn = SORTS[query.sort?.field ?? 'createdAt'];
  const order = query.sort?.dir === 'ASC' ? asc(sortColumn) : desc(sortColumn);
  const list = await tx
    .select(reportColumns)
    .from(reports)
    .innerJoin(portals, and(eq(portals.tenantId, reports.tenantId), eq(portals.id, reports.portalId)))
    .innerJoin(tenants, eq(tenants.id, reports.tenantId))
    .where(where)
    .orderBy(order, desc(reports.id))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await tx
    .select({ n: count() })
    .from(reports)
    .innerJoin(portals, and(eq(portals.tenantId, reports.tenantId), eq(portals.id, reports.portalId)))
    .where(where);
  return { list, count: Number(total?.n ?? 0) };
}

export async function findReport(tx: Executor, tenantId: TenantFilter, id: number): Promise<ReportRow | undefined> {
  const [row] = await tx
    .select(reportColumns)
    .from(reports)
    .innerJoin(portals, and(eq(portals.tenantId, reports.tenantId), eq(portals.id, reports.portalId)))
    .innerJoin(tenants, eq(tenants.id, reports.tenantId))
    .where(and(eq(reports.id, id), tenantId === undefined ? undefined : eq(reports.tenantId, tenantId)));
  return row;
}

export interface PortalRef {
  id: number;
  name: string;
  tenantId: number;
}

/** A portal that still exists, of the caller's tenant (or any tenant for the superAdmin). */
export async function findLivePortal(tx: Executor, tenantId: TenantFilter, portalId: number): Promise<PortalRef | undefined> {
  const [row] = await tx
    .select({ id: portals.id, name: portals.name, tenantId: portals.tenantId })
    .from(portals)
    .where(and(eq(portals.id, portalId), isNull(portals.deletedAt), tenantId === undefined ? undefined : eq(portals.tenantId, tenantId)));
  return row;
}

export async function insertReport(
  tx: Executor,
  values: { tenantId: number; portalId: number; period: number; config: number[]; createdBy: number; createdAt: Date },
): Promise<number> {
  const [row] = await tx
    .insert(reports)
    .values({ ...values, updatedAt: values.createdAt })
    .returning({ id: reports.id });
  return row.id;
}

export async function updateReport(
  tx: Executor,
  tenantId: number,
  id: number,
  changes: { period?: number; config?: number[] },
  now: Date,
): Promise<void> {
  await tx
    .update(reports)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(reports.tenantId, tenantId), eq(reports.id, id)));
}

export interface TenantReportSettings {
  name: string;
  timezone: string;
  goalScore: number;
}

export async function tenantReportSettings(tx: Executor, tenantId: number): Promise<TenantReportSettings> {
  const [row] = await tx
    .select({ name: tenants.name, timezone: tenants.timezone, goalScore: tenants.goalScore })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? { name: '', timezone: 'UTC', goalScore: 95 };
}

export interface CaseFigures {
  /** Cases open at some time in [from, to], by current status (0..4). */
  byStatus: Map<number, number>;
  openedInPeriod: number;
  completedInPeriod: number;
}

/** Case counts of one portal for a period ending now (so the current status is the status at its end). */
export async function caseFigures(tx: Executor, tenantId: number, portalId: number, from: Date, to: Date): Promise<CaseFigures> {
  const f = from.toISOString();
  const t = to.toISOString();
  const rows = await queryRows<{ case_type: number; touched: string | number; opened: string | number; completed: string | number }>(
    tx,
    sql`select case_type,
               count(*) filter (where created_at < ${t}::timestamptz
                                  and (case_type <> ${COMPLETED_CASE} or completed_at is null or completed_at >= ${f}::timestamptz)) as touched,
               count(*) filter (where created_at >= ${f}::timestamptz and created_at < ${t}::timestamptz) as opened,
               count(*) filter (where completed_at >= ${f}::timestamptz and completed_at < ${t}::timestamptz) as completed
          from cases
         where tenant_id = ${tenantId} and portal_id = ${portalId}
         group by case_type`,
  );
  const byStatus = new Map<number, number>();
  let opened = 0;
  let completed = 0;
  for (const r of rows) {
    byStatus.set(Number(r.case_type), Number(r.touched));
    opened += Number(r.opened);
    completed += Number(r.completed);
  }
  return { byStatus, openedInPeriod: opened, completedInPeriod: completed };
}

/** Online and offline devices of a portal right now (removed devices excluded). */
export async function deviceStatusCounts(tx: Executor, tenantId: number, portalId: number): Promise<{ online: number; offline: number }> {
  const rows = await tx
    .select({ status: devices.status, n: count() })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.portalId, portalId), isNull(devices.removedAt)))
    .groupBy(devices.status);
  const of = (s: number) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { online: of(1), offline: of(0) };
}
