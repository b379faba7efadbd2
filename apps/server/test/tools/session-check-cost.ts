/**
 * What the session check (security/session-state.ts, asked by route.ts on every authenticated
 * request) costs on a list: the real app in this process (PGlite in memory, or PostgreSQL with
 * VIGIL_TEST_DB=postgres TEST_DATABASE_URL=...), one signed-in Admin, ROUNDS rounds of REQUESTS
 * sequential `GET /v0/api/customers` through `inject`, alternating with the check and without it
 * (a stand-in that answers "current" at once), so drift of a shared machine hits both alike.
 * Prints requests per second (wall clock) and per CPU-second for each.
 *
 *   npx tsx apps/server/test/tools/session-check-cost.ts      Env: REQUESTS (2000), ROUNDS (4)
 */
import { portalEndpoints } from '@vigil/contracts';
import type { SessionState } from '../../src/security/session-state.ts';
import { createPortal, createTenant, createUser } from '../factories.ts';
import { createTestApp } from '../harness.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);

const t = await createTestApp();
const tenant = await createTenant(t);
for (let i = 0; i < 20; i++) await createPortal(t, tenant);
const admin = await createUser(t, { tenant, roles: ['Admin'] });
const login = await t.call((await import('@vigil/contracts')).authEndpoints.login, {
  body: { email: admin.email, password: admin.password },
});
const token = login.body.data.accessToken;
const url = portalEndpoints.list.path;

const checked = t.deps.sessions;
const unchecked: SessionState = { isCurrent: () => true, forget: () => {} };

async function round(): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}: ${res.body}`);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1e6 };
}

const totals = { with: { wall: 0, cpu: 0 }, without: { wall: 0, cpu: 0 } };
// Warm-up: plans, JIT, the verified-token cache.
t.deps.sessions = checked;
await round();
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
    t.deps.sessions = mode === 'with' ? checked : unchecked;
    const m = await round();
    totals[mode].wall += m.wall;
    totals[mode].cpu += m.cpu;
    console.log(`round ${r + 1} ${mode.padEnd(7)} ${(REQUESTS / m.wall).toFixed(0)} req/s, ${(REQUESTS / m.cpu).toFixed(0)} req/CPU-s`);
  }
}
const n = REQUESTS * ROUNDS;
for (const mode of ['without', 'with'] as const) {
  console.log(`${mode.padEnd(7)} ${(n / totals[mode].wall).toFixed(0)} req/s, ${(n / totals[mode].cpu).toFixed(0)} req/CPU-s`);
}
console.log(
  `check cost: ${((totals.with.cpu / totals.without.cpu - 1) * 100).toFixed(1)} % CPU, ${((totals.with.wall / totals.without.wall - 1) * 100).toFixed(1)} % wall`,
);
// The check alone, on a cached entry (the common case): what each request pays.
const principal = (await t.deps.accessTokens.verify(token))!;
await checked.isCurrent(principal);
const HITS = 1_000_000;
const h0 = performance.now();
for (let i = 0; i < HITS; i++) if (checked.isCurrent(principal) !== true) throw new Error('not current');
console.log(`cached check: ${(((performance.now() - h0) * 1e6) / HITS).toFixed(0)} ns per request`);
t.deps.sessions = checked;
await t.close();
