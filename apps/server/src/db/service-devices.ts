import type { ServiceDevice } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { containsPattern, isoOrNull } from './sql-list.ts';

/**
 * The devices of a case or of an alert as their devices tables show them (ServiceDevice): columns,
 * sort keys and filters of `devices d` joined to its portal `p`, shared by the cases' and the
 * alerts' repositories.
 */
export interface DeviceRow {
  id: number;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: number;
  inMaintenance: boolean;
  lastOnline: unknown;
  caseId: number | null;
  customerId: number;
  customerName: string;
}

export const DEVICE_COLUMNS = sql`d.id, d.name, d.device_type as "deviceType", d.device_model as "deviceModel", d.status,
  (d.maintenance_since is not null) as "inMaintenance",
  d.last_online as "lastOnline", d.open_case_id as "caseId", d.portal_id as "customerId", p.name as "customerName"`;

export const DEVICE_SORT = {
  id: sql`d.id`,
  name: sql`d.name_key`,
  deviceType: sql`d.device_type`,
  deviceModel: sql`lower(d.device_model)`,
  status: sql`d.status`,
  lastOnline: sql`d.last_online`,
};

export const toServiceDevice = (r: DeviceRow): ServiceDevice => ({
  ...r,
  lastOnline: isoOrNull(r.lastOnline),
  isClosed: r.caseId === null ? 1 : 0,
});

export interface DeviceListQuery {
  offset: number;
  limit: number;
  sort?: { field: keyof typeof DEVICE_SORT; dir: 'ASC' | 'DESC' };
  filter: { status?: number; deviceType?: number; q?: string };
}

export function deviceConditions(filter: DeviceListQuery['filter']): SQL[] {
  const where: SQL[] = [];
  if (filter.status !== undefined) where.push(sql`d.status = ${filter.status}`);
  if (filter.deviceType !== undefined) where.push(sql`d.device_type = ${filter.deviceType}`);
  if (filter.q) where.push(sql`d.name ilike ${containsPattern(filter.q)}`);
  return where;
}
