import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { StartedServer } from '../support/server.ts';
import { apiPost, apiToken } from '../support/web.ts';

/**
 * A console with every kind of user and something on every page, made through the API for the
 * role and layout tests (roles-ui, tables-fit): a tenant with an Admin, a Project Manager, a Salesman
 * and an invited user; a portal with devices, a case with a comment, a license, a report and an alert;
 * a portal with no devices; a second, empty tenant; a signed-up user with no tenant yet.
 */
export const ROOT = { email: 'root@vigil.test', password: 'platform-root-pass-1' };
export const PASSWORD = 'roles-ui-pass-1';

export type Who = 'superAdmin' | 'Admin' | 'Project Manager' | 'Salesman' | 'no tenant' | 'empty tenant Admin';
export interface World {
  emails: Record<Who, string>;
  tenantId: number;
  portalId: number;
  emptyPortalId: number;
  caseId: number;
  reportId: number;
  alertId: number;
  userId: number;
}

const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { userId: number; userName: string };

async function mailedToken(server: StartedServer, kind: 'verify-email' | 'password-confirmation', email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.includes(`/auth/${kind}?token=`) && l.includes(email))
      .at(-1);
    const match = line?.match(new RegExp(`/auth/${kind}\\?token=([A-Za-z0-9_\\-.~%]+)`));
    if (match) return decodeURIComponent(match[1]);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing mailed to ${email}`);
}

async function post(server: StartedServer, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
}

/** Invites a user into a tenant and lets it choose its password (unless `keepInvited`). */
async function addUser(server: StartedServer, token: string, tenantId: number, name: string, roles: string[], keepInvited = false) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}@roles.test`;
  const created = await apiPost<{ data: { id: number } }>(server.url, '/v0/api/users', token, {
    tenantId,
    name,
    email,
    phone: '+1 555 0102',
    roles,
  });
  if (!keepInvited) {
    const t = await mailedToken(server, 'password-confirmation', email);
    await post(server, '/v0/auth/password-confirmation', { token: t, newPassword: PASSWORD, confirmPassword: PASSWORD });
  }
  return { email, id: created.data.id };
}

async function addTenant(server: StartedServer, root: string, name: string): Promise<number> {
  const tenant = await apiPost<{ data: { id: number } }>(server.url, '/v0/api/tenants', root, {
    name,
    contactName: 'Olga Owner',
    email: 'office@roles.test',
    phone: '+1 555 0100',
    address: '1 Test Street',
    goalScore: 95,
    freeTier: true,
  });
  return tenant.data.id;
}

export async function buildWorld(server: StartedServer): Promise<World> {
  const root = await apiToken(server.url, ROOT.email, ROOT.password);
  const tenantId = await addTenant(server, root, 'Harbor Security');
  const admin = await addUser(server, root, tenantId, 'Dana Whitfield', ['Admin']);
  const token = await apiToken(server.url, admin.email, PASSWORD);
  const pm = await addUser(server, token, tenantId, 'Pete Manning', ['Project Manager']);
  const sales = await addUser(server, token, tenantId, 'Sally Sellers', ['Salesman']);
  await addUser(server, token, tenantId, 'Ivy Invited', ['Salesman'], true);

  const emptyTenant = await addTenant(server, root, 'Quiet Start Ltd');
  const emptyAdmin = await addUser(server, root, emptyTenant, 'Erin Empty', ['Admin']);

  const noTenant = `newcomer-${Date.now()}@roles.test`;
  await post(server, '/v0/auth/register', { name: 'Nora Newcomer', email: noTenant, phone: '+1 555 0199', password: PASSWORD });
  await post(server, '/v0/auth/verify-email', { token: await mailedToken(server, 'verify-email', noTenant) });

  const portal = await apiPost<{ data: { id: number; webhookUrl: string; webhookSecret: string } }>(
    server.url,
    '/v0/api/customers',
    token,
    {
      name: 'Harbor View Hotel and Conference Centre',
      apiKey: `key-${randomUUID()}`,
    },
  );
  const empty = await apiPost<{ data: { id: number } }>(server.url, '/v0/api/customers', token, {
    name: 'Quiet Plaza',
    apiKey: `key-${randomUUID()}`,
  });
  const devices = [
    ['cam-1', 'Lobby Camera North Entrance 1', 0, 'Axis P3245-LVE', 1],
    ['cam-2', 'Lobby Camera North Entrance 2', 0, 'Axis P3245-LVE', 0],
    ['int-1', 'Front Intercom Main Gate', 1, '2N IP Verso', 1],
    ['acc-1', 'Front Door Reader', 2, 'HID Signo R10', 0],
    ['alm-1', 'Alarm Panel Basement', 3, 'Bosch B6512', 1],
    ['env-1', 'Server Room Sensor', 4, 'Axis D6310', 1],
  ] as const;
  const body = JSON.stringify({
    type: 'devices.reported',
    data: {
      devices: devices.map(([externalId, name, deviceType, deviceModel, status]) => ({
        externalId,
        name,
        deviceType,
        deviceModel,
        status,
        at: new Date().toISOString(),
      })),
    },
  });
  const id = `msg_${randomUUID()}`;
  const at = new Date();
  const res = await fetch(portal.data.webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(portal.data.webhookSecret).sign(id, at, body),
    },
    body,
  });
  if (!res.ok) throw new Error(`webhook failed: ${res.status}`);

  const theCase = await apiPost<{ data: { id: number } }>(server.url, `/v0/api/customers/${portal.data.id}/case-stats`, token, {
    customerId: portal.data.id,
  });
  const me = claims(token);
  await apiPost(server.url, `/v0/api/users/${me.userId}/case-stats/${theCase.data.id}/comments`, token, {
    content: '<p>Called the hotel: the north entrance camera lost power during the storm. Technician booked for Monday morning.</p>',
    userId: me.userId,
    userName: me.userName,
    caseId: theCase.data.id,
  });
  const pmToken = await apiToken(server.url, pm.email, PASSWORD);
  const pmClaims = claims(pmToken);
  await apiPost(server.url, `/v0/api/users/${pmClaims.userId}/case-stats/${theCase.data.id}/comments`, pmToken, {
    content: '<p>Parts ordered.</p>',
    userId: pmClaims.userId,
    userName: pmClaims.userName,
    caseId: theCase.data.id,
  });
  await apiPost(server.url, `/v0/api/customers/${portal.data.id}/licenses`, token, {
    deviceType: 0,
    terms: 1,
    deviceCount: 4,
    startDate: new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10),
    customerId: portal.data.id,
    customerName: 'Harbor View Hotel and Conference Centre',
  });
  const report = await apiPost<{ data: { id: number } }>(server.url, `/v0/api/customers/${portal.data.id}/reports`, token, {
    customerId: portal.data.id,
    period: 1,
    config: [0, 1, 2],
  });
  const alert = await apiPost<{ data: { id: number } }>(server.url, '/v0/api/alert-stats', token, {
    customerId: portal.data.id,
    alertType: 0,
  });

  return {
    emails: {
      superAdmin: ROOT.email,
      Admin: admin.email,
      'Project Manager': pm.email,
      Salesman: sales.email,
      'no tenant': noTenant,
      'empty tenant Admin': emptyAdmin.email,
    },
    tenantId,
    portalId: portal.data.id,
    emptyPortalId: empty.data.id,
    caseId: theCase.data.id,
    reportId: report.data.id,
    alertId: alert.data.id,
    userId: sales.id,
  };
}

export const passwordOf = (who: Who) => (who === 'superAdmin' ? ROOT.password : PASSWORD);

/** Every dashboard route with ids from the world. */
export function routesOf(w: World): string[] {
  return [
    '/dashboards/pulse',
    '/dashboards/portals',
    `/dashboards/portals/${w.portalId}`,
    `/dashboards/portals/${w.emptyPortalId}`,
    `/dashboards/portals/${w.portalId}/case`,
    '/dashboards/portals/987654',
    '/dashboards/cases',
    `/dashboards/cases/${w.caseId}`,
    '/dashboards/reports',
    '/dashboards/reports/create',
    `/dashboards/reports/${w.reportId}`,
    '/dashboards/alerts',
    `/dashboards/alerts/${w.alertId}`,
    '/dashboards/tenants',
    `/dashboards/tenants/${w.tenantId}`,
    '/dashboards/settings',
    '/dashboards/users',
    `/dashboards/users/${w.userId}`,
    '/dashboards/search',
    '/dashboards/help',
    '/dashboards/profile',
  ];
}
