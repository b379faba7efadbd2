import { randomBytes } from 'node:crypto';
import { allTenants, inScope } from '../db/scope.ts';
import type { AppDeps } from '../deps.ts';
import { createWindow } from '../modules/maintenance/index.ts';
import { createDefaultChannel, insertChannelAs } from '../modules/notifications/index.ts';
import { hashPassword } from '../security/passwords.ts';
import { DEMO_USERS } from './demo-data.ts';
import { demoMaintenanceTargets, insertDemo } from './demo-seed.repository.ts';

export interface SeededDemo {
  tenantId: number;
  /** The one password of every demo account (random per seed, printed once). */
  password: string;
  emails: string[];
}

/**
 * Seeds the demo (docs/decisions.md 11) when the database has no tenant yet, in one transaction,
 * set-based. An advisory lock makes a second process starting at the same time wait and
 * then find the tenant, so the demo is never seeded twice. Returns null when not seeded.
 */
export async function seedDemo(deps: AppDeps, password = demoPassword()): Promise<SeededDemo | null> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(password);
  return inScope(deps.database.db, allTenants, async (tx) => {
    const tenantId = await insertDemo(tx, now, passwordHash, deps.secretBox);
    if (tenantId === null) return null;
    await insertDemoChannels(deps, tx, tenantId, now);
    await insertDemoMaintenance(deps, tx, tenantId, now);
    return { tenantId, password, emails: DEMO_USERS.map((u) => u.email) };
  });
}

/**
 * The demo tenant's notification channels (docs/notifications.md): the default "Admins" channel every
 * tenant starts with, and an on-call email channel to the local outbox with a 1-minute delay, so a
 * newcomer sees alerts the simulator causes arrive in the delivery log (and the server log) soon.
 */
async function insertDemoChannels(
  deps: AppDeps,
  tx: Parameters<typeof createDefaultChannel>[1],
  tenantId: number,
  now: Date,
): Promise<void> {
  await createDefaultChannel(deps, tx, tenantId);
  await insertChannelAs(
    deps,
    tx,
    tenantId,
    {
      name: 'On-call (outbox)',
      type: 'email',
      target: [DEMO_ONCALL_EMAIL],
      enabled: true,
      events: ['alert.opened', 'alert.resolved'],
      customerIds: [],
      delayMinutes: 1,
      repeatMinutes: 0,
    },
    now,
  );
}

/**
 * The demo's maintenance windows (docs/maintenance.md): weekly firmware updates of a whole portal on
 * Sunday nights, and a camera replacement in progress on two devices of another portal, so the portal
 * pages, the devices tables and the device pages show maintenance from the first sign-in.
 */
async function insertDemoMaintenance(deps: AppDeps, tx: Parameters<typeof createWindow>[1], tenantId: number, now: Date): Promise<void> {
  const targets = await demoMaintenanceTargets(tx, tenantId, now);
  const user = { ...targets.admin, tenantId };
  const hour = 3_600_000;
  await createWindow(deps, tx, user, {
    customerId: targets.weekly,
    deviceIds: [],
    startsAt: targets.nextSunday,
    endsAt: new Date(Date.parse(targets.nextSunday) + 2 * hour).toISOString(),
    recurrence: 'weekly',
    reason: 'Weekly firmware updates',
  });
  await createWindow(deps, tx, user, {
    customerId: targets.oneOff.portalId,
    deviceIds: targets.oneOff.deviceIds,
    startsAt: new Date(now.getTime() - hour).toISOString(),
    endsAt: new Date(now.getTime() + 3 * hour).toISOString(),
    recurrence: 'none',
    reason: 'Lobby camera replacement',
  });
}

/** Where the demo's on-call channel mails (the local outbox when SMTP_URL is unset). */
export const DEMO_ONCALL_EMAIL = 'oncall@northwind.demo';

/** A readable random password (about 60 bits), e.g. `demo-k3fj-29xq-pz7m`. */
function demoPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `demo-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** The console banner: where to go and how to sign in. */
export function demoBanner(url: string, demo: SeededDemo): string {
  const lines = [
    '',
    '  Vigil demo is ready',
    `  Open ${url}`,
    `  Sign in with any of these accounts, password: ${demo.password}`,
    ...DEMO_USERS.map((u) => `    ${u.email.padEnd(24)} ${u.roles.join(', ')}`),
    '  (Kept in DATA_DIR/demo-sign-ins.txt and shown at every start; SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD reset the superAdmin.)',
    '',
  ];
  return lines.join('\n');
}
