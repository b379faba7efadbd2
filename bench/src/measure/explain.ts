/**
 * EXPLAIN ANALYZE of the server's own queries (the reliability behind Pulse, and the list pages and
 * their totals), run through the server's functions with an executor that prefixes EXPLAIN: the
 * plans are the server's exact SQL, as the application role with the tenant's row-level security
 * on, like a request. Each statement then runs once more for its rows, so a function that reads a
 * first answer (a list's kept total decides how it pages) takes the path a request takes.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor, Tx } from '../../../apps/server/src/db/client.ts';
import { listAlerts } from '../../../apps/server/src/modules/alerts/alerts.repository.ts';
import { listCases } from '../../../apps/server/src/modules/cases/cases.repository.ts';
import { listDevices } from '../../../apps/server/src/modules/devices/devices.service.ts';
import { SortBounds } from '../../../apps/server/src/modules/devices/sort-bounds.ts';
import { listPortals } from '../../../apps/server/src/modules/portals/portals.repository.ts';
import { reliabilityByPortal, reliabilityOfTenant } from '../../../apps/server/src/modules/stats/reliability.repository.ts';
import { statusCounts } from '../../../apps/server/src/modules/stats/stats.repository.ts';
import { APP_ROLE } from '../../../apps/server/src/db/security.ts';
import type { BenchContext } from '../lib/context.ts';

type PlanRow = Record<string, string>;

/** The top node of the statement with the longest execution. */
function heaviestTop(plan: string[]): string {
  let best = '';
  let bestMs = -1;
  let top = '';
  for (const line of plan) {
    if (!line.startsWith(' ') && !line.startsWith('Planning') && !line.startsWith('Execution')) top = line.split('(cost')[0].trim();
    const m = /^Execution Time: ([\d.]+) ms/.exec(line);
    if (m && Number(m[1]) > bestMs) {
      bestMs = Number(m[1]);
      best = top;
    }
  }
  return best;
}

async function explain(database: Database, tenantId: number, run: (executor: Executor) => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  await database.db.transaction(async (tx: Tx) => {
    await tx.execute(sql`select set_config('role', ${APP_ROLE}, true), set_config('app.tenant_id', ${String(tenantId)}, true)`);
    const explaining = {
      execute: async (query: SQL) => {
        const res = (await tx.execute(sql`explain (analyze, buffers) ${query}`)) as { rows: PlanRow[] };
        lines.push(...res.rows.map((r) => Object.values(r)[0]));
        return tx.execute(query);
      },
    } as unknown as Executor;
    await run(explaining);
  });
  return lines;
}

/** The function may run several statements: their execution times add up. */
const executionMs = (plan: string[]) =>
  [...plan.join('\n').matchAll(/Execution Time: ([\d.]+) ms/g)].reduce((sum, m) => sum + Number(m[1]), 0);
const statements = (plan: string[]) => plan.filter((l) => l.startsWith('Execution Time')).length;

export async function measureQueryPlans(ctx: BenchContext, database: Database): Promise<void> {
  const to = new Date();
  const from = new Date(to.getTime() - 30 * 86_400_000);
  const tenantId = ctx.main.id;
  const cases: [string, (e: Executor) => Promise<unknown>][] = [
    ['reliabilityOfTenant (company-wide score)', (e) => reliabilityOfTenant(e, { tenantId, from, to })],
    [
      'reliabilityByPortal (a page of 10 portals)',
      (e) => reliabilityByPortal(e, { tenantId, from, to, portalIds: ctx.main.portals.slice(0, 10).map((p) => p.id) }),
    ],
  ];
  const scope = { kind: 'tenant' as const, tenantId };
  const last = (count: number) => ({ offset: Math.max(0, count - 10), limit: 10 });
  const first = { offset: 0, limit: 10 };
  const now = new Date();
  const byLastOnline = { ...first, sort: { field: 'lastOnline' as const, dir: 'DESC' as const }, filter: {} };
  const bounds = new SortBounds();
  cases.push(
    ['portals page (10, by name)', (e) => listPortals(e, { scope, sort: { field: 'name', dir: 'ASC' }, ...first })],
    ['devices first page', (e) => listDevices(e, scope, { ...first, sort: undefined, filter: {} })],
    ['devices last page', (e) => listDevices(e, scope, { ...last(ctx.main.deviceCount), sort: undefined, filter: {} })],
    ['devices sorted by lastOnline', (e) => listDevices(e, scope, byLastOnline, { sortBounds: bounds })],
    // The same page again: read through the bound the one before kept (sort-bounds.ts).
    ['devices sorted by lastOnline, from a kept bound', (e) => listDevices(e, scope, byLastOnline, { sortBounds: bounds })],
    ['devices filtered offline', (e) => listDevices(e, scope, { ...first, sort: undefined, filter: { status: 0 } })],
    ['cases first page', (e) => listCases(e, scope, { ...first, filter: {} })],
    ['cases last page', (e) => listCases(e, scope, { ...last(ctx.main.caseCount), filter: {} })],
    ['alerts first page', (e) => listAlerts(e, scope, { ...first, filter: {} }, now)],
    ['alerts last page', (e) => listAlerts(e, scope, { ...last(ctx.main.alertCount), filter: {} }, now)],
    ['alerts sorted by createdAt', (e) => listAlerts(e, scope, { ...first, sort: { field: 'createdAt', dir: 'DESC' }, filter: {} }, now)],
    ['Pulse online/offline counts', (e) => statusCounts(e, tenantId)],
  );
  const plans: Record<string, string[]> = {};
  for (const [name, run] of cases) {
    try {
      const plan = await explain(database, tenantId, run);
      plans[name] = plan;
      ctx.results.add({
        group: 'Query plan (EXPLAIN ANALYZE)',
        name,
        value: executionMs(plan),
        unit: 'ms execution',
        detail: `${statements(plan)} statements; heaviest top node: ${heaviestTop(plan)}`,
      });
      console.log(
        plan
          .slice(0, 40)
          .map((l) => `      ${l}`)
          .join('\n'),
      );
    } catch (err) {
      ctx.results.fail(`explain ${name}`, err);
    }
  }
  ctx.shared.queryPlans = plans;
}
