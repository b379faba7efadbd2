import { randomUUID } from 'node:crypto';
import {
  alertEndpoints,
  billingEndpoints,
  caseEndpoints,
  commentEndpoints,
  deviceEndpoints,
  licenseEndpoints,
  notificationChannelEndpoints,
  maintenanceEndpoints,
  portalEndpoints,
  reportEndpoints,
  tenantsEndpoints,
  usersEndpoints,
} from '@vigil/contracts';
import { Webhook } from 'standardwebhooks';
import { createDevices, createUser, type TestUser } from './factories.ts';
import type { CallResult, TestApp } from './harness.ts';

/**
 * A rich two-tenant world for the cross-cutting guard tests (isolation matrix,
 * bad-input sweep). Everything is made through the API where a route exists, so
 * the rows look exactly like production rows; users with tokens come from the
 * factory (the API invites users without a password). Every name of tenant A
 * holds "Alpha" and every name of tenant B holds "Bravo", so a leak of B's data
 * into an answer to A can be found by searching the answer's text.
 */

/** Kinds of object a path parameter can name. */
export const ID_KINDS = [
  'tenant',
  'user',
  'portal',
  'device',
  'case',
  'comment',
  'alert',
  'license',
  'report',
  'billing',
  'channel',
  'maintenance',
] as const;
export type IdKind = (typeof ID_KINDS)[number];

export type TenantRole = 'Admin' | 'Project Manager' | 'Salesman';
export const TENANT_ROLES: readonly TenantRole[] = ['Admin', 'Project Manager', 'Salesman'];

export interface WorldTenant {
  label: 'Alpha' | 'Bravo';
  id: number;
  name: string;
  users: Record<TenantRole, TestUser>;
  /** Every id of each kind this tenant owns (ids are serial across tenants, so never shared). */
  ids: Record<IdKind, number[]>;
  /** Webhook secret of each portal, by portal id. */
  webhookSecrets: Map<number, string>;
  /** Devices currently offline, and portals holding at least one. */
  offlineDeviceIds: number[];
  portalsWithOffline: number[];
  /** Checkout session ids of the billing rows. */
  billingSessions: string[];
  /** Cases not completed. */
  openCaseIds: number[];
}

export interface World {
  a: WorldTenant;
  b: WorldTenant;
  superAdmin: TestUser;
}

function expectStatus<T>(res: CallResult<T>, want: number[], what: string): CallResult<T> {
  if (!want.includes(res.status)) throw new Error(`world: ${what} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

/** Signs and posts one Standard Webhooks message to a portal's webhook, as the device cloud does. */
export async function sendSignedWebhook(
  t: TestApp,
  portalId: number,
  secret: string,
  payload: unknown,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(payload);
  const id = `msg_${randomUUID()}`;
  const at = t.clock.now();
  const res = await t.app.inject({
    method: 'POST',
    url: `/v0/webhooks/portals/${portalId}`,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    },
    payload: body,
  });
  return { status: res.statusCode, body: res.body };
}

const hasRoute = (t: TestApp, method: string, path: string) => t.deps.routes.some((r) => r.method === method && r.path === path);

/** Portal sizes: B is bigger than A, so an aggregate that counts B's devices for A shows. */
const DEVICES_PER_PORTAL = { Alpha: [3, 2], Bravo: [4, 3, 2] } as const;

async function buildTenant(t: TestApp, superAdmin: TestUser, label: 'Alpha' | 'Bravo'): Promise<WorldTenant> {
  const lower = label.toLowerCase();
  const ids = Object.fromEntries(ID_KINDS.map((k) => [k, [] as number[]])) as Record<IdKind, number[]>;
  const created = expectStatus(
    await t.call(tenantsEndpoints.create, {
      token: superAdmin.token,
      body: {
        name: `${label} Security`,
        contactName: `${label} Contact`,
        email: `${lower}@${lower}.test`,
        phone: '555-0100',
        address: `1 ${label} Road`,
        goalScore: 95,
        freeCount: 10,
      },
    }),
    [201],
    `create tenant ${label}`,
  ).body.data;
  const tenant = { id: created.id, name: created.name };
  ids.tenant.push(tenant.id);

  const users = {} as Record<TenantRole, TestUser>;
  for (const role of TENANT_ROLES) {
    const slug = role.replace(' ', '').toLowerCase();
    users[role] = await createUser(t, { tenant, roles: [role], name: `${label} ${role}`, email: `${slug}@${lower}.test` });
    ids.user.push(users[role].id);
  }
  const admin = users.Admin.token;
  const pm = users['Project Manager'].token;
  const invited = expectStatus(
    await t.call(usersEndpoints.create, {
      token: admin,
      body: { name: `${label} Invitee`, email: `invitee@${lower}.test`, phone: '555-0102', roles: ['Salesman'] },
    }),
    [201],
    `invite user of ${label}`,
  ).body.data;
  ids.user.push(invited.id);

  // A pending checkout gives the tenant a billing row (the sandbox provider, no payment).
  expectStatus(
    await t.call(billingEndpoints.registerWithSubscription, {
      token: admin,
      body: {
        name: tenant.name,
        contactName: `${label} Contact`,
        email: `${lower}@${lower}.test`,
        phone: '555-0100',
        address: `1 ${label} Road`,
        goalScore: 95,
      },
    }),
    [200],
    `checkout of ${label}`,
  );
  const billings = expectStatus(await t.call(billingEndpoints.list, { token: admin }), [200], `billings of ${label}`).body.data.list;
  ids.billing.push(...billings.map((b) => b.id));
  const billingSessions = billings.map((b) => b.sessionId);

  const webhookSecrets = new Map<number, string>();
  const offlineDeviceIds: number[] = [];
  const portalsWithOffline: number[] = [];
  const webhooksMounted = hasRoute(t, 'POST', '/v0/webhooks/portals/:id');
  const sizes = DEVICES_PER_PORTAL[label];
  for (const [p, size] of sizes.entries()) {
    const portal = expectStatus(
      await t.call(portalEndpoints.create, {
        token: p === 0 ? admin : pm,
        body: { name: `${label} Portal ${p + 1}`, apiKey: `${lower}-key-${p + 1}` },
      }),
      [201],
      `create portal of ${label}`,
    ).body.data;
    ids.portal.push(portal.id);
    webhookSecrets.set(portal.id, portal.webhookSecret!);
    // The first device of each portal is offline; the rest online.
    const statuses = Array.from({ length: size }, (_, i) => (i === 0 ? 0 : 1));
    const at = new Date(t.clock.now().getTime() - 60_000).toISOString();
    if (webhooksMounted) {
      const devices = statuses.map((status, i) => ({
        externalId: `${lower}-${p + 1}-${i + 1}`,
        name: `${label} Device ${p + 1}.${i + 1}`,
        deviceType: i % 5,
        deviceModel: `${label} Model`,
        status,
        at,
      }));
      const res = await sendSignedWebhook(t, portal.id, portal.webhookSecret!, { type: 'devices.reported', data: { devices } });
      if (res.status !== 202) throw new Error(`world: webhook of ${label} answered ${res.status} ${res.body}`);
    } else {
      await createDevices(
        t,
        { id: portal.id, tenantId: tenant.id, name: portal.name, webhookSecret: portal.webhookSecret! },
        statuses.map((status, i) => ({ status, name: `${label} Device ${p + 1}.${i + 1}` })),
      );
    }
    portalsWithOffline.push(portal.id);
  }
  // Device ids as the API lists them (whichever way they were made).
  const devices = expectStatus(
    await t.call(deviceEndpoints.list, { token: admin, query: { range: [0, 100] } }),
    [200],
    `devices of ${label}`,
  ).body.data.list;
  for (const d of devices) {
    ids.device.push(d.id);
    if (d.status === 0) offlineDeviceIds.push(d.id);
  }

  // Portal 1: an offline alert, and a case opened from it. Portal 2: a case opened on the portal.
  const [portal1, portal2] = ids.portal as [number, number];
  const alert = expectStatus(
    await t.call(alertEndpoints.create, { token: pm, body: { customerId: portal1, alertType: 0 } }),
    [201],
    `alert of ${label}`,
  ).body.data;
  ids.alert.push(alert.id);
  const fromAlert = expectStatus(
    await t.call(alertEndpoints.createCase, { token: pm, params: { id: alert.id } }),
    [201],
    `case from alert of ${label}`,
  ).body.data;
  const onPortal = expectStatus(await t.call(caseEndpoints.create, { token: admin, params: { id: portal2 } }), [201], `case of ${label}`)
    .body.data;
  for (const c of [fromAlert, onPortal]) {
    if ('error' in c) throw new Error(`world: a case of ${label} was refused: ${c.msg}`);
    ids.case.push(c.id);
  }

  for (const role of TENANT_ROLES) {
    const comment = expectStatus(
      await t.call(commentEndpoints.create, {
        token: users[role].token,
        params: { userId: users[role].id, caseId: ids.case[0] },
        body: { content: `<p>${label} comment by ${role}</p>` },
      }),
      [201],
      `comment of ${label}`,
    ).body.data;
    ids.comment.push(comment.id);
  }

  // Ends within 90 days, so a License Renewal Pending alert can be opened for it.
  const startDate = new Date(t.clock.now().getTime() - 335 * 86_400_000).toISOString().slice(0, 10);
  const license = expectStatus(
    await t.call(licenseEndpoints.create, {
      token: users.Salesman.token,
      params: { id: portal1 },
      body: { deviceType: 0, terms: 1, deviceCount: 3, startDate },
    }),
    [201],
    `license of ${label}`,
  ).body.data;
  ids.license.push(license.id);
  // A license ending within 90 days opens its renewal alert by itself (or it can be opened by hand).
  await t.call(alertEndpoints.create, { token: pm, body: { customerId: portal1, alertType: 1 } });
  const alerts = expectStatus(await t.call(alertEndpoints.list, { token: pm, query: { range: [0, 100] } }), [200], `alerts of ${label}`)
    .body.data.list;
  ids.alert = alerts.map((a) => a.id).sort((x, y) => x - y);
  if (!alerts.some((a) => a.alertType === 1)) throw new Error(`world: no license renewal alert in ${label}`);

  const report = expectStatus(
    await t.call(reportEndpoints.create, {
      token: users.Salesman.token,
      params: { id: portal1 },
      body: { customerId: portal1, period: 1, config: [0, 1, 2] },
    }),
    [201],
    `report of ${label}`,
  ).body.data;
  ids.report.push(report.id);

  // Notification channels: the tenant's default "Admins" email channel, one email and one webhook
  // channel of its own (the email one takes a test message, so the delivery log has a row).
  const mailChannel = expectStatus(
    await t.call(notificationChannelEndpoints.create, {
      token: users['Project Manager'].token,
      body: { name: `${label} mail channel`, type: 'email', target: [`ops-${label.toLowerCase()}@example.test`], customerIds: [portal1] },
    }),
    [201],
    `mail channel of ${label}`,
  ).body.data;
  expectStatus(
    await t.call(notificationChannelEndpoints.create, {
      token: admin,
      body: { name: `${label} webhook channel`, type: 'webhook', target: 'https://93.184.215.14/vigil', delayMinutes: 0 },
    }),
    [201],
    `webhook channel of ${label}`,
  );
  expectStatus(
    await t.call(notificationChannelEndpoints.test, { token: admin, params: { id: mailChannel.id }, body: {} }),
    [200],
    `test of ${label}`,
  );
  const channels = expectStatus(
    await t.call(notificationChannelEndpoints.list, { token: admin, query: { range: [0, 100] } }),
    [200],
    `channels of ${label}`,
  ).body.data.list;
  ids.channel = channels.map((c) => c.id).sort((x, y) => x - y);

  // A maintenance window far ahead (it changes no device now), scheduled by the Project Manager.
  const window = expectStatus(
    await t.call(maintenanceEndpoints.create, {
      token: users['Project Manager'].token,
      body: { customerId: portal1, startsAt: '2090-01-01T00:00:00.000Z', endsAt: '2090-01-01T02:00:00.000Z', reason: `${label} upgrade` },
    }),
    [201],
    `maintenance window of ${label}`,
  ).body.data;
  ids.maintenance.push(window.id);

  return {
    label,
    id: tenant.id,
    name: tenant.name,
    users,
    ids,
    webhookSecrets,
    billingSessions,
    offlineDeviceIds,
    portalsWithOffline,
    openCaseIds: [...ids.case],
  };
}

/** Builds tenants A ("Alpha") and B ("Bravo") and a superAdmin on a freshly reset test app. */
export async function buildWorld(t: TestApp): Promise<World> {
  const superAdmin = await createUser(t, { tenant: null, roles: ['superAdmin'], name: 'Platform Root', email: 'root@platform.test' });
  const a = await buildTenant(t, superAdmin, 'Alpha');
  const b = await buildTenant(t, superAdmin, 'Bravo');
  return { a, b, superAdmin };
}
