import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.ts';

/**
 * What PostgreSQL's autovacuum does, for the embedded database. PGlite is one backend with no
 * background workers: nothing ever vacuums or analyzes its tables, and it does not even publish its
 * table counters until asked. Left alone, dead rows of every status flip pile up in the heap and its
 * indexes, and the planner keeps the statistics of the day the tables were created: a statement
 * prepared on a small database kept its plan as the inventory grew (one-device webhooks on 50,000
 * devices in-process: 1,101 msg/s before an ANALYZE, 2,448 after; ANALYZE also invalidates the
 * cached plans, so they are made again on the new statistics).
 *
 * Each step is one statement, its own unit on the database (webhooks and reads get their turns in
 * between), and a statement on PGlite holds the whole process: nothing else answers until it ends.
 * So no step may grow with the size of a table:
 * - a small table (heap and indexes under `bigTableBytes`, DEFAULT_LIMITS below) gets autovacuum's defaults: vacuum when
 *   its dead rows exceed 50 + 20 % of its rows or its inserts since the last vacuum exceed 1,000 +
 *   20 % (that vacuum sets the visibility map index-only scans rely on); analyze when its changed
 *   rows exceed 50 + 10 %; both in one `vacuum analyze`;
 * - a big table (a month of the status history) is vacuumed without its indexes (`index_cleanup off`: the heap
 *   pages changed since the last vacuum only) as soon as `heapPassDead` dead or `heapPassInserted`
 *   new rows are there, so each pass stays small; it is analyzed on its own, from a sample of
 *   300 x `bigTableStatisticsTarget` rows, once `analyzeMaxChanged` rows changed; its indexes are
 *   cleaned (the one step whose cost follows the indexes' size) only once the dead rows left by
 *   the heap passes reach autovacuum's 50 + 20 %.
 * Each step names one table or one partition, never a partitioned table (a statement on the status
 * history's parent would recurse into every month of it): the status history is split by ended_at
 * (schema/monitoring.ts), so the flips' dead rows are all in its open periods' partition (about one
 * row per device, whatever the history's length), and the months of closed periods only get inserts:
 * a heap pass sets their pages all-visible, an analyze follows their growth, and their indexes are
 * never cleaned for want of dead rows. At 50,000 devices and 2.35 million periods, after 25,000 flips:
 * the open partition's `vacuum analyze` (its indexes cleaned) 65-88 ms of CPU, the month's heap pass
 * 3-7 ms, where the whole history's index cleanup took 510-671 ms (test/tools/maintenance-steps.ts).
 * Before that split, measured in-process at 50,000 devices, 2.3 million periods (780 MB), after 25,000 status changes
 * (CPU time of the process: the wall time on the busy 2-core bench machine was 5-15x it): the one
 * `vacuum analyze` of the periods 1.31-1.65 s (13.8-20.7 s wall, every request waiting); the heap pass
 * 135-159 ms (0.19-0.25 s wall); the index cleanup 0.72-0.79 s (5-10.6 s wall); the analyze at the
 * default sample 723 ms, at a sample of 9,000 rows 347 ms. docs/performance.md "Maintenance under load".
 */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const INSERT_THRESHOLD = 1_000;
const INSERT_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

export interface MaintenanceLimits {
  /** Heap plus indexes above this: a big table, maintained in bounded steps. */
  bigTableBytes: number;
  /** Dead rows of a big table that start a heap pass. */
  heapPassDead: number;
  /** New rows of a big table that start a heap pass (it sets their pages all-visible). */
  heapPassInserted: number;
  /** Changed rows of a big table that start an analyze (when under autovacuum's 10 %). */
  analyzeMaxChanged: number;
  /** default_statistics_target while a big table is analyzed: the sample is 300 x this many rows. */
  bigTableStatisticsTarget: number;
}

export const DEFAULT_LIMITS: MaintenanceLimits = {
  bigTableBytes: 64 * 1024 * 1024,
  heapPassDead: 5_000,
  heapPassInserted: 20_000,
  analyzeMaxChanged: 50_000,
  bigTableStatisticsTarget: 30,
};

export type MaintenanceAction = 'vacuum analyze' | 'analyze' | 'vacuum heap' | 'vacuum indexes';

export interface TableMaintenance {
  /** Schema-qualified and quoted, as run. */
  table: string;
  action: MaintenanceAction;
  /** From asking for the database to the end of the statement: includes waiting for its turn (priority-gate.ts). */
  ms: number;
}

interface TableCounters {
  rows: number;
  dead: number;
  inserted: number;
  changed: number;
  bytes: number;
}

/**
 * Dead rows the heap passes left for the indexes' cleanup, per table of each database (this process
 * only: PGlite's own counters start at zero at every start too, measured).
 */
const leftForIndexes = new WeakMap<Database, Map<string, number>>();

function stepsFor(t: TableCounters, deadLeft: number, limits: MaintenanceLimits): MaintenanceAction[] {
  const rows = Math.max(t.rows, 0); // -1: never analyzed
  const vacuumDead = VACUUM_THRESHOLD + VACUUM_SCALE * rows;
  const analyze = t.changed > ANALYZE_THRESHOLD + ANALYZE_SCALE * rows;
  if (t.bytes < limits.bigTableBytes) {
    if (t.dead > vacuumDead || t.inserted > INSERT_THRESHOLD + INSERT_SCALE * rows) return ['vacuum analyze'];
    return analyze ? ['analyze'] : [];
  }
  const steps: MaintenanceAction[] = [];
  if (t.dead > limits.heapPassDead || t.inserted > limits.heapPassInserted) steps.push('vacuum heap');
  if (deadLeft + (steps.length ? t.dead : 0) > vacuumDead) steps.push('vacuum indexes');
  if (analyze || t.changed > limits.analyzeMaxChanged) steps.push('analyze');
  return steps;
}

const STATEMENTS: Record<MaintenanceAction, (table: string) => string> = {
  'vacuum analyze': (table) => `vacuum analyze ${table}`,
  analyze: (table) => `analyze ${table}`,
  // VACUUM runs outside any transaction block: plain statements on the database, not inScope.
  'vacuum heap': (table) => `vacuum (index_cleanup off, truncate off) ${table}`,
  'vacuum indexes': (table) => `vacuum (index_cleanup on, truncate off) ${table}`,
};

/**
 * Vacuums and analyzes the application's tables that crossed the thresholds, in steps of one
 * statement each (see above). Does nothing on PostgreSQL, where autovacuum does it.
 */
export async function maintainPglite(database: Database, limits: MaintenanceLimits = DEFAULT_LIMITS): Promise<TableMaintenance[]> {
  if (database.kind !== 'pglite') return [];
  const left = leftForIndexes.get(database) ?? new Map<string, number>();
  leftForIndexes.set(database, left);
  // The counters of this backend reach pg_stat_user_tables only when flushed: at the end of this statement.
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
  const tables = await queryRows<{ name: string } & Record<keyof TableCounters, number | string>>(
    database.db,
    sql`select format('%I.%I', s.schemaname, s.relname) as name, c.reltuples as rows, s.n_dead_tup as dead,
               s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as changed, pg_total_relation_size(s.relid) as bytes
          from pg_stat_user_tables s join pg_class c on c.oid = s.relid
         where s.schemaname = 'public' and c.relkind <> 'p'
         order by s.relname`,
  );
  const done: TableMaintenance[] = [];
  for (const row of tables) {
    const counters = {
      rows: Number(row.rows),
      dead: Number(row.dead),
      inserted: Number(row.inserted),
      changed: Number(row.changed),
      bytes: Number(row.bytes),
    };
    for (const action of stepsFor(counters, left.get(row.name) ?? 0, limits)) {
      const started = performance.now();
      if (action === 'analyze' && counters.bytes >= limits.bigTableBytes) {
        // A sample of a fixed size whatever the table's: the setting is only read by ANALYZE.
        await database.db.execute(sql.raw(`set default_statistics_target = ${Math.trunc(limits.bigTableStatisticsTarget)}`));
        try {
          await database.db.execute(sql.raw(STATEMENTS.analyze(row.name)));
        } finally {
          await database.db.execute(sql`reset default_statistics_target`);
        }
      } else {
        await database.db.execute(sql.raw(STATEMENTS[action](row.name)));
      }
      if (action === 'vacuum heap') left.set(row.name, (left.get(row.name) ?? 0) + counters.dead);
      if (action === 'vacuum indexes' || action === 'vacuum analyze') left.delete(row.name);
      done.push({ table: row.name, action, ms: Math.round(performance.now() - started) });
    }
  }
  return done;
}

/**
 * On PostgreSQL the server leaves vacuum and analyze to autovacuum (on by default): the warning to log
 * at start when it is off, else undefined. Without it nothing removes the dead rows every status flip
 * and heartbeat leaves (a whole benchmark run at size L on such a server: 123,000 dead device rows,
 * webhooks in batches of 100 at 7,325 events/s; 10,838 in the next whole run, each of its ingestion
 * runs started vacuumed).
 */
export async function autovacuumOffWarning(database: Database): Promise<string | undefined> {
  if (database.kind !== 'postgres') return undefined;
  const [row] = await queryRows<{ autovacuum: string }>(database.db, sql`select current_setting('autovacuum') as autovacuum`);
  if (row?.autovacuum !== 'off') return undefined;
  return "PostgreSQL's autovacuum is off: nothing vacuums or analyzes Vigil's tables, and webhooks and lists slow down as dead rows pile up; turn it on (autovacuum = on) or vacuum regularly";
}
