import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authEndpoints as ep } from '@vigil/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { createTenant, createUser } from '../../../test/factories.ts';
import { usesPostgres, workerDatabaseUrl } from '../../../test/database.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { superAdminStartup } from './auth.startup.ts';
import { SuperAdminError, ensureSuperAdmin } from './superadmin.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string) => t.call(ep.login, { body: { email, password } });

describe('ensureSuperAdmin', () => {
  it('creates a verified superAdmin without tenant, then updates its password and reactivates it', async () => {
    expect(await ensureSuperAdmin(t.database, { email: 'Root@Example.com', password: 'first-root-password' }, t.clock.now())).toBe(
      'created',
    );
    const res = await login('root@example.com', 'first-root-password');
    expect(res.status).toBe(200);
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken)).toMatchObject({ tenantId: -1, roles: ['superAdmin'] });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'root@example.com'));
    expect(row).toMatchObject({ tenantId: null, roles: ['superAdmin'] });
    expect(row.emailVerifiedAt).not.toBeNull();

    expect(await ensureSuperAdmin(t.database, { email: 'root@example.com', password: 'first-root-password' }, t.clock.now())).toBe(
      'unchanged',
    );
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, row.id));
    expect(await ensureSuperAdmin(t.database, { email: 'root@example.com', password: 'second-root-password' }, t.clock.now())).toBe(
      'updated',
    );
    // The old password's session ends with the change.
    expect((await t.call(ep.refresh, { body: { refreshToken: res.body.data.refreshToken } })).status).toBe(401);
    expect((await login('root@example.com', 'first-root-password')).status).toBe(401);
    expect((await login('root@example.com', 'second-root-password')).status).toBe(200);
  });

  it('refuses the email of a tenant user and a short password', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    await expect(ensureSuperAdmin(t.database, { email: admin.email, password: 'long-enough-password' }, t.clock.now())).rejects.toThrow(
      SuperAdminError,
    );
    await expect(ensureSuperAdmin(t.database, { email: 'x@example.com', password: 'short' }, t.clock.now())).rejects.toThrow(
      SuperAdminError,
    );
    expect((await login(admin.email, 'long-enough-password')).status).toBe(401);
  });

  it('runs at start from SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD', async () => {
    const deps = { ...t.deps, config: { ...t.deps.config, superAdmin: { email: 'boot@example.com', password: 'boot-password-1' } } };
    await superAdminStartup(deps, t.app);
    expect((await login('boot@example.com', 'boot-password-1')).status).toBe(200);
    await superAdminStartup(
      { ...deps, config: { ...deps.config, superAdmin: { email: 'boot@example.com', password: 'boot-password-2' } } },
      t.app,
    );
    expect((await login('boot@example.com', 'boot-password-2')).status).toBe(200);
  });
});

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function superadminCli(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, APP_SECRET: 'cli-test-secret-cli-test-secret-0123', LOG_LEVEL: 'silent' };
  delete childEnv.DATABASE_URL;
  Object.assign(childEnv, env);
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/superadmin.ts', ...args], {
      cwd: serverDir,
      env: childEnv,
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run superadmin (cli/superadmin.ts)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-superadmin-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the superAdmin in the configured database and prints what it did', { timeout: 120_000 }, async () => {
    // On PostgreSQL the CLI writes to this worker's database, and the account signs in through the app.
    const env: Record<string, string> = usesPostgres() ? { DATABASE_URL: workerDatabaseUrl() } : { DATA_DIR: dataDir };
    const res = await superadminCli(['--email', 'cli-root@example.com', '--password', 'cli-root-password'], env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^superAdmin cli-root@example\.com created on (PostgreSQL|PGlite)/);

    if (usesPostgres()) {
      expect((await login('cli-root@example.com', 'cli-root-password')).status).toBe(200);
    } else {
      const database = await openDatabase({ dataDir });
      try {
        const [row] = await database.db
          .select()
          .from(users)
          .where(sql`lower(${users.email}) = 'cli-root@example.com'`);
        expect(row).toMatchObject({ tenantId: null, roles: ['superAdmin'] });
        expect(await verifyPassword(row.passwordHash, 'cli-root-password')).toBe(true);
      } finally {
        await database.close();
      }
    }
  });

  it('explains its usage when an argument is missing', { timeout: 60_000 }, async () => {
    const res = await superadminCli(['--email', 'x@example.com'], { DATA_DIR: dataDir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Both --email and --password are required.');
  });
});
