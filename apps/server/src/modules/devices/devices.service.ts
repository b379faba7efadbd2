import type { Device, DeviceListQuery } from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { notFound } from '../../http/errors.ts';
import { toIso, toIsoOrNull } from '../../db/sql-fragments.ts';
import * as repo from './devices.repository.ts';
import { firstPageWithTotal, keptDeviceTotal, runKeptTotal } from '../../db/kept-counts.ts';

function present(row: repo.DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    deviceType: Number(row.device_type),
    deviceModel: row.device_model,
    status: Number(row.status),
    lastOnline: toIsoOrNull(row.last_online),
    isClosed: row.open_case_id === null ? 1 : 0,
    caseId: row.open_case_id === null ? null : Number(row.open_case_id),
    customerId: row.portal_id,
    customerName: row.customer_name,
    tenantName: row.tenant_name,
    createdAt: toIso(row.created_at),
  };
}

export async function listDevices(tx: Executor, scope: Scope, query: DeviceListQuery): Promise<{ list: Device[]; count: number }> {
  const filter = { scope, ...query.filter };
  const sort = query.sort ?? { field: 'name' as const, dir: 'ASC' as const };
  // The total comes from the kept counts unless a filter they do not hold (name, case, alert) is given.
  const { q, caseId, alertId } = query.filter;
  const page = { ...filter, sort, offset: query.offset, limit: query.limit };
  if (q || caseId !== undefined || alertId !== undefined) {
    return { list: (await repo.listDevices(tx, page)).map(present), count: await repo.countDevices(tx, filter) };
  }
  const total = keptDeviceTotal(scope, query.filter);
  if (query.offset === 0) {
    const { rows, kept } = await firstPageWithTotal<repo.DeviceRow>(tx, total, (column) => repo.listDevicesSql(page, column).query);
    return { list: rows.map(present), count: kept.count };
  }
  // A later page: the total first, so a page nearer the end is read from the end.
  const kept = await runKeptTotal(tx, total);
  const rows = await repo.listDevices(tx, { ...page, total: kept.count, hasDeletedPortal: kept.hasDeletedPortal });
  const count = kept.count;
  return { list: rows.map(present), count };
}

export async function getDevice(tx: Tx, scope: Scope, id: number): Promise<Device> {
  const [row] = await repo.listDevices(tx, { scope, id, sort: { field: 'name', dir: 'ASC' }, offset: 0, limit: 1 });
  if (!row) throw notFound();
  return present(row);
}
