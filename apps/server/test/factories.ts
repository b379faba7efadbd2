import type { Role } from '@vigil/contracts';
import { devices, deviceStatusPeriods, portals, tenants, users } from '../src/db/schema/index.ts';
import { newWebhookSecret } from '../src/security/webhook-secret.ts';
import { hashPassword } from '../src/security/passwords.ts';
import type { TestApp } from './harness.ts';

let seq = 0;
const next = () => ++seq;

export interface TestTenant {
  id: number;
  name: string;
}

/** A tenant row, with an active subscription unless told otherwise. */
export async function createTenant(t: TestApp, fields: Partial<typeof tenants.$inferInsert> = {}): Promise<TestTenant> {
  const n = next();
  const [row] = await t.database.db
    .insert(tenants)
    .values({
      name: `Tenant ${n}`,
      contactName: `Contact ${n}`,
      email: `tenant${n}@example.com`,
      phone: '555-0100',
      address: `${n} Main St`,
      subscriptionStatus: 'active',
      ...fields,
    })
    .returning({ id: tenants.id, name: tenants.name });
  return row;
}

export interface TestUser {
  id: number;
  email: string;
  name: string;
  password: string;
  tenantId: number;
  tenantName: string;
  roles: Role[];
  /** A valid access token for this user at the fake clock's time. */
  token: string;
}

/** A verified user with a password; `tenant` null makes a superAdmin or a no-tenant user. */
export async function createUser(
  t: TestApp,
  opts: { tenant: TestTenant | null; roles: Role[]; email?: string; name?: string; password?: string },
): Promise<TestUser> {
  const n = next();
  const password = opts.password ?? `password-${n}-secret`;
  const email = opts.email ?? `user${n}@example.com`;
  const name = opts.name ?? `User${n} Tester`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      tenantId: opts.tenant?.id ?? null,
      email,
      name,
      phone: '555-0101',
      roles: opts.roles,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: t.clock.now(),
    })
    .returning({ id: users.id });
  const principal = {
    userId: row.id,
    userName: name,
    tenantId: opts.tenant?.id ?? -1,
    tenantName: opts.tenant?.name ?? '',
    roles: opts.roles,
  };
  return { id: row.id, email, name, password, ...principal, token: await t.deps.accessTokens.sign(principal) };
}

/** One tenant with one user of each tenant role, plus a superAdmin: the usual cast of a role test. */
export async function createCast(t: TestApp) {
  const tenant = await createTenant(t);
  const [admin, pm, salesman] = await Promise.all([
    createUser(t, { tenant, roles: ['Admin'] }),
    createUser(t, { tenant, roles: ['Project Manager'] }),
    createUser(t, { tenant, roles: ['Salesman'] }),
  ]);
  const superAdmin = await createUser(t, { tenant: null, roles: ['superAdmin'] });
  const other = await createTenant(t);
  const otherAdmin = await createUser(t, { tenant: other, roles: ['Admin'] });
  return { tenant, admin: admin, pm: pm, salesman: salesman, superAdmin, other, otherAdmin };
}

export interface TestPortal {
  id: number;
  tenantId: number;
  name: string;
  webhookSecret: string;
}

/** A portal row with a real sealed API key and webhook secret (bypasses billing rules). */
export async function createPortal(t: TestApp, tenant: TestTenant, name = `Portal ${next()}`): Promise<TestPortal> {
  const webhookSecret = newWebhookSecret();
  const [row] = await t.database.db
    .insert(portals)
    .values({
      tenantId: tenant.id,
      name,
      apiKeyEnc: t.deps.secretBox.seal(`key-${name}`),
      webhookSecretEnc: t.deps.secretBox.seal(webhookSecret),
    })
    .returning({ id: portals.id });
  return { id: row.id, tenantId: tenant.id, name, webhookSecret };
}

export interface DeviceSpec {
  name?: string;
  deviceType?: number;
  status?: 0 | 1;
  /** When the device was first seen (its history starts then); default: 1 day before the clock. */
  since?: Date;
}

/**
 * Devices with one open status period each, written directly (for tests of
 * features that read devices). Ingestion tests send signed webhooks instead.
 */
export async function createDevices(
  t: TestApp,
  portal: TestPortal,
  specs: DeviceSpec[],
): Promise<{ id: number; name: string; status: number }[]> {
  const created: { id: number; name: string; status: number }[] = [];
  for (const spec of specs) {
    const n = next();
    const since = spec.since ?? new Date(t.clock.now().getTime() - 86_400_000);
    const status = spec.status ?? 1;
    const [row] = await t.database.db
      .insert(devices)
      .values({
        tenantId: portal.tenantId,
        portalId: portal.id,
        externalId: `ext-${n}`,
        name: spec.name ?? `Device ${n}`,
        deviceType: spec.deviceType ?? 0,
        deviceModel: 'Model X',
        status,
        lastReportAt: since,
        lastOnline: status === 1 ? since : null,
        statusSince: since,
        firstSeenAt: since,
      })
      .returning({ id: devices.id, name: devices.name, status: devices.status });
    await t.database.db
      .insert(deviceStatusPeriods)
      .values({ tenantId: portal.tenantId, deviceId: row.id, portalId: portal.id, status, startedAt: since });
    created.push(row);
  }
  return created;
}
