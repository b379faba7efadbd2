import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { portals, tenants, users } from '../db/schema/index.ts';
import type { AppDeps } from '../deps.ts';
import { newWebhookSecret } from '../security/webhook-secret.ts';
import { DEMO_COMMENTS, DEMO_KINDS, DEMO_MODELS, DEMO_PLACES, DEMO_PORTALS, DEMO_TENANT, DEMO_TYPE_MIX, DEMO_USERS } from './demo-data.ts';
import { insertDemoDevices } from './demo-history.repository.ts';
import { insertDemoOperations } from './demo-operations.repository.ts';

/**
 * Writes the demo tenant, its users, portals, devices with their history and its operations, in the
 * caller's transaction, unless the database already has a tenant (null then). An advisory lock makes
 * a second process starting at the same time wait and then find the tenant. Returns the tenant's id.
 */
export async function insertDemo(tx: Tx, now: Date, passwordHash: string, secretBox: AppDeps['secretBox']): Promise<number | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vigil-demo-seed'))`);
  const [existing] = await queryRows<{ n: string | number }>(tx, sql`select count(*) as n from tenants`);
  if (Number(existing?.n ?? 0) > 0) return null;

  const [tenant] = await tx
    .insert(tenants)
    .values({ ...DEMO_TENANT, subscriptionStatus: 'active', createdAt: new Date(now.getTime() - 120 * 86_400_000) })
    .returning({ id: tenants.id });
  const tenantId = tenant.id;
  const people = await tx
    .insert(users)
    .values(
      DEMO_USERS.map((u) => ({
        tenantId: u.tenant ? tenantId : null,
        email: u.email,
        name: u.name,
        phone: DEMO_TENANT.phone,
        roles: [...u.roles],
        passwordHash,
        emailVerifiedAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  const idOf = (email: string) => people.find((p) => p.email === email)?.id;

  const created = await tx
    .insert(portals)
    .values(
      DEMO_PORTALS.map((p, i) => ({
        tenantId,
        name: p.name,
        apiKeyEnc: secretBox.seal(`nwk_live_${randomBytes(12).toString('hex')}`),
        webhookSecretEnc: secretBox.seal(newWebhookSecret()),
        createdAt: new Date(now.getTime() - (100 - i) * 86_400_000),
      })),
    )
    .returning({ id: portals.id, name: portals.name });
  const withCounts = created.map((p) => ({ id: p.id, devices: DEMO_PORTALS.find((d) => d.name === p.name)!.devices }));

  await insertDemoDevices(tx, tenantId, now, withCounts, {
    places: DEMO_PLACES,
    kinds: DEMO_KINDS,
    models: DEMO_MODELS,
    typeMix: DEMO_TYPE_MIX,
  });
  const adminId = idOf('admin@northwind.demo');
  const pmId = idOf('pm@northwind.demo');
  if (adminId === undefined || pmId === undefined)
    throw new Error('demo users already exist without a tenant: clear the database or set SEED=none');
  await insertDemoOperations(tx, tenantId, now, { adminId, pmId }, DEMO_COMMENTS);
  return tenantId;
}
