/**
 * EXPLAIN ANALYZE of the server's own reliability queries (the heaviest Pulse work), run through
 * the server's functions with an executor that prefixes EXPLAIN: the plans are the server's exact
 * SQL, as the application role with the tenant's row-level security on, like a request.
 * The functions receive plan lines instead of rows; their return values are ignored.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor, Tx } from '../../../apps/server/src/db/client.ts';
import { reliabilityByPortal, reliabilityOfTenant } from '../../../apps/server/src/modules/stats/reliability.ts';
import { APP_ROLE } from '../../../apps/server/src/db/security.ts';
import type { BenchContext } from '../lib/context.ts';

type PlanRow = Record<string, string>;

/** The top node of the statement with the longest execution. */
function heaviestTop(plan: string[]): string {
  let best = '';
  let bestMs = -1;
  let top = '';
  for (const line of plan) {
    if (!line.startsWith(' ') && !line.startsWith('Planning') && !line.startsWith('Execution')) top = line.split('(cost')[0]!.trim();
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
        const res = (await tx.execute(sql`explain (analyze, buffers) ${query}`)) as unknown as { rows: PlanRow[] };
        lines.push(...res.rows.map((r) => Object.values(r)[0]!));
        return { rows: [] };
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
    ['reliabilityByPortal (a page of 10 portals)', (e) => reliabilityByPortal(e, { tenantId, from, to, portalIds: ctx.main.portals.slice(0, 10).map((p) => p.id) })],
  ];
  const plans: Record<string, string[]> = {};
  for (const [name, run] of cases) {
    try {
      const plan = await explain(database, tenantId, run);
      plans[name] = plan;
      ctx.results.add({ group: 'Query plan (EXPLAIN ANALYZE)', name, value: executionMs(plan), unit: 'ms execution', detail: `${statements(plan)} statements; heaviest top node: ${heaviestTop(plan)}` });
      console.log(plan.slice(0, 40).map((l) => `      ${l}`).join('\n'));
    } catch (err) {
      ctx.results.fail(`explain ${name}`, err);
    }
  }
  ctx.shared.queryPlans = plans;
}
