import {
  HISTORY_MAX_DAYS,
  type Device,
  type DeviceDetail,
  type DeviceHistory,
  type DeviceHistoryQuery,
  type DeviceListQuery,
} from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import * as history from './history.repository.ts';
import { toIso, toIsoOrNull } from '../../db/sql-fragments.ts';
import * as repo from './devices.repository.ts';
import {
  firstPageWithTotal,
  keptDeviceTotal,
  laterPageWithTotal,
  listKey,
  runKeptTotal,
  type KeptTotalQuery,
} from '../../db/kept-counts.ts';
import { NAME_MARK_EVERY, type NameMarkStore } from './name-marks.ts';
import type { SortBound, SortBounds } from './sort-bounds.ts';

function present(row: repo.DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    deviceType: Number(row.device_type),
    deviceModel: row.device_model,
    status: Number(row.status),
    inMaintenance: row.in_maintenance === true,
    lastOnline: toIsoOrNull(row.last_online),
    isClosed: row.open_case_id === null ? 1 : 0,
    caseId: row.open_case_id === null ? null : Number(row.open_case_id),
    customerId: row.portal_id,
    customerName: row.customer_name,
    tenantName: row.tenant_name,
    createdAt: toIso(row.created_at),
  };
}

/** What the devices list keeps in this process between requests (devices.routes.ts). */
export interface DeviceListKept {
  /** Name marks, for later pages of a tenant's whole list in its default order. */
  marks?: NameMarkStore;
  /** Bounds of its pages in the orders no index serves. */
  sortBounds?: SortBounds;
}

/** A page of devices and the list's total. */
export async function listDevices(
  tx: Executor,
  scope: Scope,
  query: DeviceListQuery,
  kept: DeviceListKept = {},
): Promise<{ list: Device[]; count: number }> {
  const sort = query.sort ?? { field: 'name' as const, dir: 'ASC' as const };
  if (!repo.isBoundedSort(sort.field) || !kept.sortBounds) {
    const { rows, count } = await listDevicesPage(tx, scope, query, sort, kept.marks);
    return { list: rows.map(present), count };
  }
  // An order no index serves: read through the nearest kept bound, and keep the one this page ends at.
  const bounds = kept.sortBounds;
  const list = boundedList(scope, query.filter, sort);
  const depth = query.offset + query.limit;
  const { rows, count } = await listDevicesPage(tx, scope, query, sort, kept.marks, bounds.boundFor(list, depth));
  const last = rows.at(-1);
  if (rows.length < query.limit) bounds.dropFrom(list, depth);
  else if (last?.sort_key != null) bounds.keep(list, { key: last.sort_key, id: Number(last.id), rows: depth });
  return { list: rows.map(present), count };
}

/** Which list a bound is kept for: the caller's scope, the filter and the order. */
export const boundedList = (scope: Scope, filter: DeviceListQuery['filter'], sort: NonNullable<DeviceListQuery['sort']>) =>
  `${listKey('devices', scope, filter)} ${sort.field} ${sort.dir}`;

async function listDevicesPage(
  tx: Executor,
  scope: Scope,
  query: DeviceListQuery,
  sort: NonNullable<DeviceListQuery['sort']>,
  marks?: NameMarkStore,
  bound?: SortBound,
): Promise<{ rows: repo.DeviceRow[]; count: number }> {
  const filter = { scope, ...query.filter };
  // The total comes from the kept counts unless a filter they do not hold (name, case, alert) is given.
  const { q, caseId, alertId } = query.filter;
  const page = { ...filter, sort, offset: query.offset, limit: query.limit, bound };
  if (q || caseId !== undefined || alertId !== undefined) {
    return { rows: await repo.listDevices(tx, page), count: await repo.countDevices(tx, filter) };
  }
  // Built only where asked: a page from the name marks has its total with the marks.
  const total = () => keptDeviceTotal(scope, query.filter);
  const key = () => listKey('devices', scope, query.filter);
  if (query.offset === 0) {
    const { rows, kept } = await firstPageWithTotal<repo.DeviceRow>(
      tx,
      total(),
      (column) => repo.listDevicesSql(page, column).query,
      key(),
    );
    return { rows, count: kept.count };
  }
  const marked =
    marks &&
    scope.kind === 'tenant' &&
    sort.field === 'name' &&
    sort.dir === 'ASC' &&
    Object.values(query.filter).every((v) => v === undefined)
      ? { marks, tenantId: scope.tenantId }
      : undefined;
  if (marked) {
    const fromMark = await pageFromMark(tx, marked.marks, marked.tenantId, query);
    if (fromMark) return fromMark;
  }
  const answer = await laterPage(tx, total(), key(), page);
  // A deep page of a tenant without kept marks: its marks are read in the same transaction, for the next pages.
  if (marked && query.offset >= NAME_MARK_EVERY)
    await marked.marks.readIfDue(marked.tenantId, () => repo.readNameMarks(tx, marked.tenantId));
  return answer;
}

/**
 * A later page from the tenant's kept name marks, when they are still of its current order; undefined
 * otherwise. Its total is the one read with the marks: the unchanged version says no device was
 * added, removed or deleted since (name-marks.ts), and the rows' join says the tenant is live.
 */
async function pageFromMark(
  tx: Executor,
  marks: NameMarkStore,
  tenantId: number,
  query: DeviceListQuery,
): Promise<{ rows: repo.DeviceRow[]; count: number } | undefined> {
  const start = marks.startOf(tenantId, query.offset);
  if (!start) return undefined;
  const read = await repo.listMarkedDevices(tx, tenantId, query.limit, start);
  // An empty page (past the end) says nothing of the marks: it is read by offset, with its total.
  if (!read) return undefined;
  // Out of date, or the tenant has a deleted portal (the mark's skip does not check portals): read by offset.
  if (read.version !== start.version || read.hasDeletedPortal) {
    marks.drop(tenantId, start.version);
    return undefined;
  }
  return { rows: read.rows, count: start.count };
}

/** A later page by offset: with its total in one statement (without a deleted portal), or the total first. */
async function laterPage(
  tx: Executor,
  total: KeptTotalQuery,
  key: string,
  page: repo.DeviceFilter & repo.DevicePage,
): Promise<{ rows: repo.DeviceRow[]; count: number }> {
  const later = repo.laterDevicesSql(page);
  const both = later && (await laterPageWithTotal<repo.DeviceRow>(tx, total, key, page, later));
  if (both) return { rows: both.rows, count: both.kept.count };
  // Otherwise the total first, so a page nearer the end is read from the end.
  const kept = await runKeptTotal(tx, total);
  const rows = await repo.listDevices(tx, { ...page, total: kept.count, hasDeletedPortal: kept.hasDeletedPortal });
  return { rows, count: kept.count };
}

const DAY_MS = 86_400_000;
/** The device page's score window: the last 30 days, like every other reliability figure. */
const SCORE_WINDOW_MS = 30 * DAY_MS;
const HISTORY_DEFAULT_MS = 7 * DAY_MS;

/** One device with what its page shows (docs/history.md); 404 when removed, missing or another tenant's. */
export async function getDevice(tx: Tx, scope: Scope, id: number, now: Date): Promise<DeviceDetail> {
  const [row] = await repo.listDevices(tx, { scope, id, sort: { field: 'name', dir: 'ASC' }, offset: 0, limit: 1 });
  const extras = row ? await history.deviceExtras(tx, scope, id) : undefined;
  if (!row || !extras) throw notFound();
  const tenantId = Number(extras.tenant_id);
  const reliabilityScore = await history.deviceScore(tx, {
    tenantId,
    deviceId: id,
    from: new Date(now.getTime() - SCORE_WINDOW_MS),
    to: now,
  });
  return {
    ...present(row),
    firstSeen: toIso(extras.first_seen_at),
    statusSince: toIso(extras.status_since),
    reliabilityScore,
    goalScore: Number(extras.goal_score),
    openAlertId: extras.open_alert_id === null ? null : Number(extras.open_alert_id),
  };
}

/** The history window: `to` defaults to now, `from` to 7 days before `to`; from < to, at most 90 days. */
export function historyWindow(query: DeviceHistoryQuery, now: Date): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - HISTORY_DEFAULT_MS);
  if (from >= to) throw badRequest('from must be before to');
  if (to.getTime() - from.getTime() > HISTORY_MAX_DAYS * DAY_MS) throw badRequest(`The range must not exceed ${HISTORY_MAX_DAYS} days`);
  return { from, to };
}

/**
 * The device's status periods over the window, contiguous and clipped to it (docs/history.md).
 * An open period ends now (or at `to` when earlier); a window in the future has no periods.
 */
export async function deviceHistory(tx: Executor, scope: Scope, id: number, query: DeviceHistoryQuery, now: Date): Promise<DeviceHistory> {
  const win = historyWindow(query, now);
  const extras = await history.deviceExtras(tx, scope, id);
  if (!extras) throw notFound();
  const openEnd = win.to < now ? win.to : now;
  const rows = await history.devicePeriods(tx, { tenantId: Number(extras.tenant_id), deviceId: id, ...win, openEnd });
  return { periods: rows.map((r) => ({ status: Number(r.status), from: toIso(r.s), to: toIso(r.e) })) };
}
