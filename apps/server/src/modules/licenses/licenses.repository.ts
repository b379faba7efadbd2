import type { License } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { allOf, at, containsPattern, inTenant, isoOf, orderBy, pageOf } from '../../db/sql-list.ts';
import { daysRemainingSql } from '../../db/license-days.ts';

type LicenseRow = Omit<License, 'createdAt'> & { createdAt: unknown };

const LICENSE_FROM = sql`from licenses l
  join portals p on p.tenant_id = l.tenant_id and p.id = l.portal_id and p.deleted_at is null
  join tenants t on t.id = l.tenant_id`;

const licenseColumns = (now: Date) => sql`l.id, l.portal_id as "customerId", p.name as "customerName", l.device_type as "deviceType",
  l.device_count as "deviceCount", l.terms, to_char(l.start_date, 'YYYY-MM-DD') as "startDate",
  to_char(l.end_date, 'YYYY-MM-DD') as "endDate", ${daysRemainingSql(now)} as "daysRemaining", l.created_at as "createdAt"`;

const toLicense = (r: LicenseRow): License => ({ ...r, createdAt: isoOf(r.createdAt) });

export interface LicenseListQuery {
  offset: number;
  limit: number;
  sort?: {
    field: 'id' | 'customerName' | 'deviceType' | 'deviceCount' | 'terms' | 'startDate' | 'endDate' | 'daysRemaining';
    dir: 'ASC' | 'DESC';
  };
  filter: { customerId?: number; deviceType?: number; q?: string };
  customerId?: number;
}

export async function listLicenses(tx: Tx, scope: Scope, q: LicenseListQuery, now: Date): Promise<{ list: License[]; count: number }> {
  const where: SQL[] = [inTenant(scope, sql`l.tenant_id`)];
  for (const customerId of new Set([q.customerId, q.filter.customerId]))
    if (customerId !== undefined) where.push(sql`l.portal_id = ${customerId}`);
  if (q.filter.deviceType !== undefined) where.push(sql`l.device_type = ${q.filter.deviceType}`);
  if (q.filter.q) where.push(sql`p.name ilike ${containsPattern(q.filter.q)}`);
  const sort = {
    id: sql`l.id`,
    customerName: sql`lower(p.name)`,
    deviceType: sql`l.device_type`,
    deviceCount: sql`l.device_count`,
    terms: sql`l.terms`,
    startDate: sql`l.start_date`,
    endDate: sql`l.end_date`,
    daysRemaining: daysRemainingSql(now),
  };
  const rows = await queryRows<LicenseRow>(
    tx,
    sql`select ${licenseColumns(now)} ${LICENSE_FROM} where ${allOf(where)} ${orderBy(q.sort, sort, sql`l.id desc`)} ${pageOf(q)}`,
  );
  const [total] = await queryRows<{ count: number }>(tx, sql`select count(*)::int as count ${LICENSE_FROM} where ${allOf(where)}`);
  return { list: rows.map(toLicense), count: total?.count ?? 0 };
}

export async function findLicense(tx: Tx, scope: Scope, id: number, now: Date): Promise<License | undefined> {
  const [row] = await queryRows<LicenseRow>(
    tx,
    sql`select ${licenseColumns(now)} ${LICENSE_FROM} where ${inTenant(scope, sql`l.tenant_id`)} and l.id = ${id}`,
  );
  return row && toLicense(row);
}

export interface NewLicense {
  tenantId: number;
  portalId: number;
  deviceType: number;
  deviceCount: number;
  terms: number;
  startDate: string;
  endDate: string;
  now: Date;
}

export async function insertLicense(tx: Tx, l: NewLicense): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into licenses (tenant_id, portal_id, device_type, device_count, terms, start_date, end_date, created_at)
        values (${l.tenantId}, ${l.portalId}, ${l.deviceType}, ${l.deviceCount}, ${l.terms}, ${l.startDate}::date, ${l.endDate}::date, ${at(l.now)})
        returning id`,
  );
  return row.id;
}

/** Deletes a license the caller can see; returns its tenant, or undefined when there was none. */
export async function deleteLicense(tx: Tx, scope: Scope, id: number): Promise<number | undefined> {
  const [row] = await queryRows<{ tenantId: number }>(
    tx,
    sql`delete from licenses l where ${inTenant(scope, sql`l.tenant_id`)} and l.id = ${id}
          and exists (select 1 from portals p where p.tenant_id = l.tenant_id and p.id = l.portal_id and p.deleted_at is null)
        returning l.tenant_id as "tenantId"`,
  );
  return row?.tenantId;
}
