import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { portals, tenants, users } from '../../db/schema/index.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { hashPassword } from '../../security/passwords.ts';
import { newWebhookSecret } from '../../security/webhook-secret.ts';
import { DEMO_COMMENTS, DEMO_KINDS, DEMO_MODELS, DEMO_PLACES, DEMO_PORTALS, DEMO_TENANT, DEMO_TYPE_MIX, DEMO_USERS } from './demo-data.ts';
import { insertDemoDevices } from './demo-history.ts';
import { insertDemoOperations } from './demo-operations.ts';

export interface SeededDemo {
  tenantId: number;
  /** The one password of every demo account (random per seed, printed once). */
  password: string;
  emails: string[];
}

/**
 * Seeds the demo (decisions.md §1) when the database has no tenant yet, in one transaction,
 * set-based. An advisory lock makes a second process starting at the same time wait and
 * then find the tenant, so the demo is never seeded twice. Returns null when not seeded.
 */
export async function seedDemo(deps: AppDeps, password = demoPassword()): Promise<SeededDemo | null> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(password);
  return inScope(deps.database.db, allTenants, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vigil-demo-seed'))`);
    const [existing] = await queryRows<{ n: string | number }>(tx, sql`select count(*) as n from tenants`);
    if (Number(existing?.n ?? 0) > 0) return null;

    const [tenant] = await tx.insert(tenants).values({ ...DEMO_TENANT, subscriptionStatus: 'active', createdAt: new Date(now.getTime() - 120 * 86_400_000) }).returning({ id: tenants.id });
    const tenantId = tenant!.id;
    const people = await tx
      .insert(users)
      .values(DEMO_USERS.map((u) => ({ tenantId: u.tenant ? tenantId : null, email: u.email, name: u.name, phone: DEMO_TENANT.phone, roles: [...u.roles], passwordHash, emailVerifiedAt: now })))
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email });
    const idOf = (email: string) => people.find((p) => p.email === email)?.id;

    const created = await tx
      .insert(portals)
      .values(
        DEMO_PORTALS.map((p, i) => ({
          tenantId,
          name: p.name,
          apiKeyEnc: deps.secretBox.seal(`nwk_live_${randomBytes(12).toString('hex')}`),
          webhookSecretEnc: deps.secretBox.seal(newWebhookSecret()),
          createdAt: new Date(now.getTime() - (100 - i) * 86_400_000),
        })),
      )
      .returning({ id: portals.id, name: portals.name });
    const withCounts = created.map((p) => ({ id: p.id, devices: DEMO_PORTALS.find((d) => d.name === p.name)!.devices }));

    await insertDemoDevices(tx, tenantId, now, withCounts, { places: DEMO_PLACES, kinds: DEMO_KINDS, models: DEMO_MODELS, typeMix: DEMO_TYPE_MIX });
    const adminId = idOf('admin@northwind.demo');
    const pmId = idOf('pm@northwind.demo');
    if (adminId === undefined || pmId === undefined) throw new Error('demo users already exist without a tenant: clear the database or set SEED=none');
    await insertDemoOperations(tx, tenantId, now, { adminId, pmId }, DEMO_COMMENTS);
    return { tenantId, password, emails: DEMO_USERS.map((u) => u.email) };
  });
}

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
