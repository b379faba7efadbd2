import { DEVICE_STATUS } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from './client.ts';
import { IDS_PER_MARK, idMarksOf, type IdMarkedStart, type IdMarks, type IdMarkStore } from './id-marks.ts';
import { DEVICE_COUNT_PREFIXES } from './schema/counts.ts';
import { tenantScope, type Scope } from './scope.ts';
import { tenantCondition } from './sql-fragments.ts';
import { pageEnd, pageFromTotal, pageLimit, type PageEnd } from './sql-list.ts';

/**
 * Totals read from the kept count tables (db/schema/counts.ts, maintained by triggers) instead of
 * counting devices, cases or alerts per request: a few rows per portal, joined to the live portals
 * and tenants so deleted ones drop out exactly as they do from the lists.
 *
 * Each answer also says whether the scope has a deleted portal: only then must a list check each
 * row's portal while it skips rows (the deferred-join pages below stay index-only otherwise).
 */
export interface KeptTotal {
  count: number;
  hasDeletedPortal: boolean;
}

/** Whether any portal of the scope is soft-deleted (portals_deleted_idx: usually an empty range). */
export const deletedPortalExists = (scope: Scope) =>
  sql`exists (select 1 from portals dp where dp.deleted_at is not null and ${tenantCondition(scope, sql`dp.tenant_id`)})`;

/**
 * Sum of `sum` over the kept rows `k` of `table` matching `conds`, for live portals only (and a live
 * tenant when `liveTenant`). For one tenant without a name condition the portals are not joined: the
 * rows of its deleted portals (usually none, found through portals_deleted_idx) are subtracted instead.
 */
function keptTotalSql(scope: Scope, o: { sum: SQL; table: SQL; conds: SQL[]; liveTenant: boolean; onPortal?: SQL }): SQL {
  const where = sql.join([tenantCondition(scope, sql`k.tenant_id`), ...o.conds], sql` and `);
  let total: SQL;
  if (scope.kind === 'tenant' && !o.onPortal) {
    const all = sql`(select coalesce(sum(${o.sum}), 0) from ${o.table} k where ${where})`;
    const ofDeleted = sql`(select coalesce(sum(${o.sum}), 0) from portals p join ${o.table} k on k.tenant_id = p.tenant_id and k.portal_id = p.id
                            where p.tenant_id = ${scope.tenantId} and p.deleted_at is not null and ${where})`;
    const tenantLive = o.liveTenant
      ? sql`exists (select 1 from tenants t where t.id = ${scope.tenantId} and t.deleted_at is null)`
      : sql`true`;
    total = sql`case when ${tenantLive} then ${all} - ${ofDeleted} else 0 end`;
  } else {
    total = sql`(select coalesce(sum(${o.sum}), 0) from ${o.table} k
                   join portals p on p.tenant_id = k.tenant_id and p.id = k.portal_id and p.deleted_at is null
                   ${o.liveTenant ? sql`join tenants t on t.id = k.tenant_id and t.deleted_at is null` : sql``}
                  where ${where} ${o.onPortal ? sql`and ${o.onPortal}` : sql``})`;
  }
  return sql`select (${total})::int as n, ${deletedPortalExists(scope)} as deleted`;
}

/**
 * A kept total as SQL (one row: `n`, `deleted`), for a list that asks it in the same statement as its
 * first page (one round trip fewer; on PGlite every statement of a request is serialized).
 */
export type KeptTotalQuery = SQL;

export async function runKeptTotal(executor: Executor, query: KeptTotalQuery): Promise<KeptTotal> {
  const [row] = await queryRows<{ n: number | string | null; deleted: boolean }>(executor, query);
  return { count: Number(row?.n ?? 0), hasDeletedPortal: row?.deleted === true };
}

/** The sum of a kept device count row `k`'s `<type>_total` or `<type>_online` columns over the given types (all by default). */
export function keptDeviceColumns(suffix: 'total' | 'online', types: readonly string[] = DEVICE_COUNT_PREFIXES): SQL {
  return sql.join(
    types.map((t) => sql.raw(`k.${t}_${suffix}`)),
    sql` + `,
  );
}

/** Devices not removed, optionally of one portal, status (1 online, 0 offline) and type: one sum over `device_counts`. */
export function keptDeviceTotal(scope: Scope, f: { customerId?: number; status?: number; deviceType?: number }): KeptTotalQuery {
  const types = f.deviceType === undefined ? DEVICE_COUNT_PREFIXES : [DEVICE_COUNT_PREFIXES[f.deviceType]];
  const column = (suffix: 'total' | 'online') => keptDeviceColumns(suffix, types);
  const sum =
    f.status === undefined
      ? column('total')
      : f.status === DEVICE_STATUS.online
        ? column('online')
        : f.status === DEVICE_STATUS.offline
          ? sql`${column('total')} - (${column('online')})`
          : sql`0`;
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  return keptTotalSql(scope, { sum, table: sql`device_counts`, conds, liveTenant: true });
}

/** Cases, optionally of one portal, of one status code, or open (below `completed`) / completed. */
export function keptCaseTotal(
  scope: Scope,
  f: { customerId?: number; caseType?: number; open?: boolean; portalNameLike?: string },
  completed: number,
): KeptTotalQuery {
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  if (f.caseType !== undefined) conds.push(sql`k.case_type = ${f.caseType}`);
  if (f.open === true) conds.push(sql`k.case_type < ${completed}`);
  if (f.open === false) conds.push(sql`k.case_type = ${completed}`);
  const onPortal = f.portalNameLike === undefined ? undefined : sql`p.name ilike ${f.portalNameLike}`;
  return keptTotalSql(scope, { sum: sql`k.total`, table: sql`case_counts`, conds, liveTenant: false, onPortal });
}

/** Alerts, optionally of one portal and type, or of portals whose name matches. */
export function keptAlertTotal(scope: Scope, f: { customerId?: number; alertType?: number; portalNameLike?: string }): KeptTotalQuery {
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  if (f.alertType !== undefined) conds.push(sql`k.alert_type = ${f.alertType}`);
  const onPortal = f.portalNameLike === undefined ? undefined : sql`p.name ilike ${f.portalNameLike}`;
  return keptTotalSql(scope, { sum: sql`k.total`, table: sql`alert_counts`, conds, liveTenant: false, onPortal });
}

/**
 * Condition for a list's inner (row-skipping) query on table alias `alias`: its portal is not deleted.
 * Needed only when the scope has a deleted portal; otherwise `true`, so the skip stays index-only.
 */
export function portalNotDeleted(alias: string, hasDeletedPortal: boolean): SQL {
  if (!hasDeletedPortal) return sql`true`;
  const a = sql.raw(alias);
  return sql`not exists (select 1 from portals dp where dp.tenant_id = ${a}.tenant_id and dp.id = ${a}.portal_id and dp.deleted_at is not null)`;
}

/**
 * A first page and its kept total in one statement: `page` is run with the total as an extra column
 * (`kept_total`, a CTE read once); the total is remembered under `key` (see lastTotals). The row-skipping query must not rely on "no deleted portal"
 * (there is nothing to skip on a first page, so checking each row's portal costs nothing). An empty
 * page carries no total: then the total is asked on its own.
 */
export async function firstPageWithTotal<R>(
  executor: Executor,
  total: KeptTotalQuery,
  page: (keptTotalColumn: SQL) => SQL,
  key?: string,
): Promise<{ rows: R[]; kept: KeptTotal }> {
  const rows = await queryRows<R & { kept_total: number | string }>(
    executor,
    sql`with kept as (${total}) ${page(sql`(select n from kept) as kept_total`)}`,
  );
  if (rows.length === 0) return { rows: [], kept: await runKeptTotal(executor, total) };
  // hasDeletedPortal is not known here; the first page's query did not need it.
  const count = Number(rows[0].kept_total);
  if (key !== undefined) rememberTotal(key, count);
  return { rows: rows.map(({ kept_total: _total, ...row }) => row as R), kept: { count, hasDeletedPortal: true } };
}

/**
 * The last total each list (and filter) answered, in this process: only to choose the end a later page
 * is read from (sql-list.ts pageEnd), never as an answer. Cleared when it grows past its bound.
 */
const lastTotals = new Map<string, number>();
const LAST_TOTALS_MAX = 10_000;

/** Records a list's total as answered (see lastTotals). */
export function rememberTotal(listKey: string, count: number): void {
  if (lastTotals.size >= LAST_TOTALS_MAX) lastTotals.clear();
  lastTotals.set(listKey, count);
}

/** The key of a list's total in lastTotals: the list, the caller's scope and the filter (the sort does not change the total). */
export const listKey = (list: string, scope: Scope, filter: unknown): string =>
  `${list} ${scope.kind === 'tenant' ? scope.tenantId : 'all'} ${JSON.stringify(filter)}`;

/**
 * A later page (offset > 0) and its kept total in one statement, read from the end nearer by the last
 * total seen for `list` (a key naming the list, its scope and filter): `page` builds the statement
 * from the end (its order flag and limit) and two columns (`kept_total`, `kept_deleted`); its rows
 * must come in the requested order. The row-skipping read assumes the scope has no deleted portal
 * (no portal check per skipped row, index-only); when the kept total says otherwise the rows are
 * dropped.
 *
 * Undefined when the statement answered no row (an empty page) or the scope has a deleted portal: the
 * caller then asks the total and the page as before, in two rounds.
 */
export async function laterPageWithTotal<R>(
  executor: Executor,
  total: KeptTotalQuery,
  listKey: string,
  q: { offset: number; limit: number },
  page: (end: PageEnd, keptColumns: SQL) => SQL,
): Promise<{ rows: R[]; kept: KeptTotal } | undefined> {
  const end = pageEnd(q, sql`(select n from kept)`, lastTotals.get(listKey));
  const read = await keptColumnsPage<R>(executor, sql`kept as (${total})`, (keptColumns) => page(end, keptColumns));
  if (!read) return undefined;
  rememberTotal(listKey, read.kept.count);
  return { rows: pageFromTotal(q, end, read.kept.count, read.rows), kept: read.kept };
}

/**
 * A later page of a tenant's cases or alerts in their default order (newest id first) with no filter,
 * and its total, in one statement that skips fewer than 1,024 rows whatever the offset: the read
 * starts at the block of 1,024 ids (schema/counts.ts id marks) holding the page's first row, skipping
 * only the rows before the page inside it. A read by offset alone skips every row before the page
 * (from the nearer end: up to half the list; at L, 91,000 alerts). `page` builds the statement from
 * `skip` (a bound on the id and the limit, for the row-skipping read in id-descending order) and the
 * kept columns. The block comes from the tenant's marks kept in `idMarks` (id-marks.ts) while the
 * version the page reads is theirs; otherwise the statement sums the marks itself, and a tenant without
 * kept marks gets them read after the page. The total is the marks' sum: they count every case or
 * alert of the tenant, a deleted portal's too, so with a deleted portal the rows are dropped;
 * undefined then, or for an empty page: the caller reads the page otherwise.
 */
export async function markedPageWithTotal<R>(
  executor: Executor,
  marks: 'case_id_marks' | 'alert_id_marks',
  tenantId: number,
  q: { offset: number; limit: number },
  page: (skip: { idBelow: SQL; limit: SQL }, keptColumns: SQL) => SQL,
  idMarks?: IdMarkStore,
): Promise<{ rows: R[]; kept: KeptTotal } | undefined> {
  const versions = sql.raw(marks === 'case_id_marks' ? 'case_order_versions' : 'alert_order_versions');
  const start = idMarks?.startOf(tenantId, q.offset);
  if (idMarks && start) {
    const fromKept = await keptMarkedPage<R>(executor, versions, tenantId, q, start, page);
    if (fromKept) return fromKept;
    // An empty page (past the end) says nothing of the marks; a page of another version or with a deleted portal drops them.
    if (fromKept === null) idMarks.drop(tenantId, start.version);
  }
  const skip = {
    idBelow: sql`(select (bucket + 1) * ${sql.raw(String(IDS_PER_MARK))} from mark)`,
    limit: sql`limit ${pageLimit(q.limit)} offset (select ${q.offset} - before from mark)`,
  };
  const ctes = sql`marks as (select m.bucket, m.total, sum(m.total) over (order by m.bucket desc) as upto
                               from ${sql.raw(marks)} m where m.tenant_id = ${tenantId}),
                    mark as (select bucket, upto - total as before from marks where upto > ${q.offset} order by bucket desc limit 1),
                    kept as (select (select coalesce(sum(total), 0) from marks)::int as n, ${deletedPortalExists(tenantScope(tenantId))} as deleted)`;
  const answer = await keptColumnsPage<R>(executor, ctes, (keptColumns) => page(skip, keptColumns));
  await idMarks?.readIfDue(tenantId, () => readIdMarks(executor, marks, versions, tenantId));
  return answer;
}

/**
 * The page from kept marks, with the tenant's order version and deleted-portal flag read in its
 * statement: the page with the marks' total when the version is theirs and no portal is deleted,
 * null when not (the marks are out of date, or cannot serve this tenant), undefined for an empty page.
 */
async function keptMarkedPage<R>(
  executor: Executor,
  versions: SQL,
  tenantId: number,
  q: { offset: number; limit: number },
  start: IdMarkedStart,
  page: (skip: { idBelow: SQL; limit: SQL }, keptColumns: SQL) => SQL,
): Promise<{ rows: R[]; kept: KeptTotal } | null | undefined> {
  const skip = { idBelow: sql`${start.idBelow}`, limit: sql`limit ${pageLimit(q.limit)} offset ${start.skip}` };
  const columns = sql`${orderVersionOf(versions, tenantId)} as kept_version,
    ${deletedPortalExists(tenantScope(tenantId))} as kept_deleted`;
  const rows = await queryRows<R & { kept_version: string; kept_deleted: boolean }>(executor, page(skip, columns));
  if (rows.length === 0) return undefined;
  if (String(rows[0].kept_version) !== start.version || rows[0].kept_deleted === true) return null;
  return {
    rows: rows.map(({ kept_version: _version, kept_deleted: _deleted, ...row }) => row as R),
    kept: { count: start.count, hasDeletedPortal: false },
  };
}

/** A tenant's order version of a list (`versions`: its table: devices', cases' or alerts'), as text; no row yet reads as 0. */
export const orderVersionOf = (versions: SQL, tenantId: number): SQL =>
  sql`coalesce((select v.version from ${versions} v where v.tenant_id = ${tenantId}), 0)::text`;

/**
 * A tenant's id marks (blocks holding rows, newest first) and its order version, in one statement (one
 * snapshot). Undefined for a tenant with a deleted portal: a page from a block skips rows without
 * checking their portal, so it could never be answered from them.
 */
async function readIdMarks(
  executor: Executor,
  marks: 'case_id_marks' | 'alert_id_marks',
  versions: SQL,
  tenantId: number,
): Promise<IdMarks | undefined> {
  const rows = await queryRows<{ version: string; bucket: number; total: number }>(
    executor,
    sql`select ${orderVersionOf(versions, tenantId)} as version, m.bucket, m.total
          from ${sql.raw(marks)} m
         where m.tenant_id = ${tenantId} and m.total > 0 and not ${deletedPortalExists(tenantScope(tenantId))}
         order by m.bucket desc`,
  );
  if (rows.length === 0) return undefined;
  return idMarksOf(
    String(rows[0].version),
    rows.map((r) => ({ bucket: Number(r.bucket), total: Number(r.total) })),
  );
}

/** Columns a statement of keptColumnsPage carries besides its rows' own. */
interface KeptPageColumns {
  kept_total: number | string;
  kept_deleted: boolean;
}

/**
 * Runs `page` behind `ctes` (which define `kept`: one row, the total `n` and the deleted-portal flag
 * `deleted`) with the total and the flag as extra columns on every row, and strips them from the
 * rows. Undefined for an empty page or a scope with a deleted portal: the later-page reads skip rows
 * without checking their portal.
 */
async function keptColumnsPage<R>(
  executor: Executor,
  ctes: SQL,
  page: (keptColumns: SQL) => SQL,
): Promise<{ rows: R[]; kept: KeptTotal } | undefined> {
  const keptColumns = sql`(select n from kept) as kept_total, (select deleted from kept) as kept_deleted`;
  const rows = await queryRows<R & KeptPageColumns>(executor, sql`with ${ctes} ${page(keptColumns)}`);
  if (rows.length === 0 || rows[0].kept_deleted === true) return undefined;
  return {
    rows: rows.map(({ kept_total: _total, kept_deleted: _deleted, ...row }) => row as R),
    kept: { count: Number(rows[0].kept_total), hasDeletedPortal: false },
  };
}
