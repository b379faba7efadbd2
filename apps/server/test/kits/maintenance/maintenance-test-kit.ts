import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import type { TestApp } from '../../harness.ts';

/**
 * The open-period invariant with maintenance: a device not removed has exactly one open period, which
 * starts at maintenance_since with status 2 while in maintenance, else at status_since with its status.
 */
export async function expectOpenPeriodInvariant(t: TestApp, tenantId: number): Promise<void> {
  const broken = await queryRows<{ id: number }>(
    t.database.db,
    sql`select d.id from devices d
         where d.tenant_id = ${tenantId} and d.removed_at is null
           and (select count(*) from device_status_periods p where p.tenant_id = d.tenant_id and p.device_id = d.id and p.ended_at is null) <> 1
            or d.tenant_id = ${tenantId} and d.removed_at is null and not exists (
                 select 1 from device_status_periods p
                  where p.tenant_id = d.tenant_id and p.device_id = d.id and p.ended_at is null
                    and p.started_at = coalesce(d.maintenance_since, d.status_since)
                    and p.status = case when d.maintenance_since is null then d.status else 2 end)
            or d.tenant_id = ${tenantId} and d.removed_at is not null
               and (d.maintenance_since is not null
                    or exists (select 1 from device_status_periods p where p.tenant_id = d.tenant_id and p.device_id = d.id and p.ended_at is null))`,
  );
  expect(broken).toEqual([]);
}
