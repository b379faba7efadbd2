import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { devices, portals } from '../src/db/schema/index.ts';
import { allTenants, inScope, tenantScope } from '../src/db/scope.ts';
import { tenantTables } from '../src/db/security.ts';
import { createTenant } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function seedTwoTenants() {
  const a = await createTenant(t);
  const b = await createTenant(t);
  for (const tenant of [a, b]) {
    await inScope(t.database.db, tenantScope(tenant.id), async (tx) => {
      const [portal] = await tx
        .insert(portals)
        .values({ tenantId: tenant.id, name: `P of ${tenant.name}`, apiKeyEnc: 'x', webhookSecretEnc: 'y' })
        .returning();
      const now = new Date();
      await tx.insert(devices).values({
        tenantId: tenant.id,
        portalId: portal.id,
        externalId: 'd1',
        name: 'Cam',
        deviceType: 0,
        status: 1,
        lastReportAt: now,
        statusSince: now,
        firstSeenAt: now,
      });
    });
  }
  return { a, b };
}

describe('row-level security backstop', () => {
  it('a tenant-scoped query that forgets its WHERE clause still sees only its tenant', async () => {
    const { a, b } = await seedTwoTenants();
    const seenByA = await inScope(t.database.db, tenantScope(a.id), (tx) => tx.select().from(portals));
    expect(seenByA.map((p) => p.tenantId)).toEqual([a.id]);
    const devicesOfB = await inScope(t.database.db, tenantScope(b.id), (tx) =>
      queryRows<{ tenant_id: number }>(tx, sql`select tenant_id from devices`),
    );
    expect(devicesOfB.map((d) => d.tenant_id)).toEqual([b.id]);
    const all = await inScope(t.database.db, allTenants, (tx) => tx.select().from(portals));
    expect(all).toHaveLength(2);
  });

  it('refuses to write a row into another tenant', async () => {
    const { a, b } = await seedTwoTenants();
    await expect(
      inScope(t.database.db, tenantScope(a.id), (tx) =>
        tx.insert(portals).values({ tenantId: b.id, name: 'sneaky', apiKeyEnc: 'x', webhookSecretEnc: 'y' }),
      ),
    ).rejects.toThrow();
    const updated = await inScope(t.database.db, tenantScope(a.id), (tx) => tx.update(portals).set({ name: 'renamed' }).returning());
    expect(updated.every((p) => p.tenantId === a.id)).toBe(true);
  });

  it('has row-level security enabled and forced on every tenant table', async () => {
    const tables = await tenantTables(t.database);
    expect(tables.map((x) => x.table)).toEqual(
      expect.arrayContaining([
        'tenants',
        'users',
        'portals',
        'devices',
        'device_status_periods',
        'cases',
        'comments',
        'alerts',
        'licenses',
        'reports',
        'billings',
      ]),
    );
    const flags = await queryRows<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      t.database.db,
      sql`select relname, relrowsecurity, relforcerowsecurity from pg_class where relname in (${sql.join(
        tables.map((x) => sql`${x.table}`),
        sql`, `,
      )})`,
    );
    expect(flags).toHaveLength(tables.length);
    for (const f of flags) expect([f.relname, f.relrowsecurity, f.relforcerowsecurity]).toEqual([f.relname, true, true]);
  });
});
