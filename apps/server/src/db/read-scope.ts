import type { Database, Executor } from './client.ts';
import { GENERIC_PLANS, preparedExecutor } from './prepared.ts';
import { inScope, type Scope } from './scope.ts';

/**
 * A read's transaction in `scope` (lists, Pulse; route.ts `readTx`), its statements planned once
 * per database session (prepared.ts): run prepared, with generic plans. Left to choose (custom plans,
 * or `auto` with prepared statements, which measured the same), PostgreSQL planned every list
 * statement at every request: 1.2-1.9 ms of planning for a 0.2-1.2 ms run at size L, and for the portals list's
 * kept-window scoring statement 2.5-3 ms for a 1-1.5 ms run (its generic plan reads the same indexes:
 * a page's scores 4.6-4.8 -> 1.5-1.7 ms). L @50, interleaved runs, custom -> generic, every page
 * different: cases 253-414 -> 504-693 req/s, alerts 206-227 -> 293-294, devices 193-201 -> 232-250;
 * same-URL cases/alerts pages 2,571-5,053 -> 3,581-7,168 (on a data set reused across runs; on a fresh
 * seed the two whole runs were within their noise of each other).
 * PGlite the same (its runner sets the plan rule): planning was most of a list request there, 0.5-0.8
 * ms for the total and 1.1-1.3 ms for the page against 0.2 and 1.2 ms of execution. In-process, 300
 * pages spread over each list at S, plain -> prepared: devices 3.9-5.0 -> 1.5-1.8 ms per request, cases
 * 3.0-4.2 -> 1.1-1.6 ms, alerts 3.6-4.9 -> 1.5-1.8 ms; alerts only once the page size was written into
 * the text (db/sql-list.ts pageLimit; with it bound, 3.6 -> 4.0 ms).
 */
export function inReadScope<T>(
  database: Pick<Database, 'readDb' | 'kind' | 'prepared'>,
  scope: Scope,
  fn: (executor: Executor) => Promise<T>,
): Promise<T> {
  // On PostgreSQL the plan rule and the read-only rule go with the scope's settings, in one round
  // trip (a list read was five: BEGIN, the scope, the plan rule, the statement, COMMIT). On PGlite
  // the runner sets the plan rule itself, and every statement of `readDb` runs in a read-only
  // transaction of its own (client.ts).
  const settings = database.kind === 'postgres' ? `${READ_ONLY}; ${GENERIC_PLANS}; ${JIT_OFF}` : undefined;
  return inScope(database.readDb, scope, (tx) => fn(preparedExecutor(database.prepared, tx)), settings);
}

/** A read that tried to write fails (SQLSTATE 25006) instead of writing. */
const READ_ONLY = 'set transaction read only';

/**
 * At size L the planner estimates some reads above jit_above_cost (the rollup's and the kept window's,
 * docs/uptime-rollup.md) and compiling costs more than running them: no read is compiled, also where
 * its statements do not turn JIT off themselves (a portal page's scores from a kept base as last read,
 * kept-window-query.repository.ts).
 */
const JIT_OFF = 'set local jit = off';
