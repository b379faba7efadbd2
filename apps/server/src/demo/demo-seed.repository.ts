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

/** What the demo's maintenance windows need: the demo Admin, and two portals with their first devices. */
export interface DemoMaintenanceTargets {
  admin: { userId: number; userName: string };
  /** The coming Sunday 02:00 in the demo tenant's zone (this week's if still ahead). */
  nextSunday: string;
  weekly: number;
  oneOff: { portalId: number; deviceIds: number[] };
}

export async function demoMaintenanceTargets(tx: Tx, tenantId: number, now: Date): Promise<DemoMaintenanceTargets> {
  const at = now.toISOString();
  const [row] = await queryRows<{
    user_id: number;
    user_name: string;
    next_sunday: Date | string;
    weekly: number;
    one_off: number;
    device_ids: number[];
  }>(
    tx,
    sql`with sunday as (
          select (date_trunc('week', ${at}::timestamptz at time zone t.timezone) + interval '6 days 2 hours') at time zone t.timezone as s
            from tenants t where t.id = ${tenantId}
        ), ps as (
          select p.id, row_number() over (order by p.name) as n from portals p where p.tenant_id = ${tenantId} and p.name in (${DEMO_PORTALS[5].name}, ${DEMO_PORTALS[7].name})
        )
        select u.id as user_id, u.name as user_name,
               (select case when s < ${at}::timestamptz then s + interval '7 days' else s end from sunday) as next_sunday,
               (select id from ps where n = 1) as weekly, (select id from ps where n = 2) as one_off,
               array(select d.id from devices d where d.tenant_id = ${tenantId} and d.portal_id = (select id from ps where n = 2)
                      order by d.id limit 2) as device_ids
          from users u where u.tenant_id = ${tenantId} and u.email = ${DEMO_USERS[1].email}`,
  );
  return {
    admin: { userId: Number(row.user_id), userName: row.user_name },
    nextSunday: new Date(row.next_sunday).toISOString(),
    weekly: Number(row.weekly),
    oneOff: { portalId: Number(row.one_off), deviceIds: row.device_ids.map(Number) },
  };
}
