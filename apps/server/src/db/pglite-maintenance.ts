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
 * The thresholds are autovacuum's defaults, per table: vacuum when its dead rows exceed 50 + 20 % of
 * its rows or its inserts since the last vacuum exceed 1,000 + 20 % (that vacuum sets the visibility
 * map that index-only scans rely on); analyze when its changed rows exceed 50 + 10 %.
 */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const INSERT_THRESHOLD = 1_000;
const INSERT_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

export interface TableMaintenance {
  /** Schema-qualified and quoted, as run. */
  table: string;
  action: 'vacuum analyze' | 'analyze';
  ms: number;
}

interface TableCounters {
  rows: number;
  dead: number;
  inserted: number;
  changed: number;
}

function actionFor(t: TableCounters): TableMaintenance['action'] | undefined {
  const rows = Math.max(t.rows, 0); // -1: never analyzed
  if (t.dead > VACUUM_THRESHOLD + VACUUM_SCALE * rows || t.inserted > INSERT_THRESHOLD + INSERT_SCALE * rows) return 'vacuum analyze';
  if (t.changed > ANALYZE_THRESHOLD + ANALYZE_SCALE * rows) return 'analyze';
  return undefined;
}

/**
 * Vacuums and analyzes the application's tables that crossed the thresholds, one statement per
 * table (each its own unit on the database, so webhooks and reads get their turns in between).
 * Does nothing on PostgreSQL, where autovacuum does it.
 */
export async function maintainPglite(database: Database): Promise<TableMaintenance[]> {
  if (database.kind !== 'pglite') return [];
  // The counters of this backend reach pg_stat_user_tables only when flushed: at the end of this statement.
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
  const tables = await queryRows<{ name: string } & Record<keyof TableCounters, number | string>>(
    database.db,
    sql`select format('%I.%I', s.schemaname, s.relname) as name, c.reltuples as rows, s.n_dead_tup as dead,
               s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as changed
          from pg_stat_user_tables s join pg_class c on c.oid = s.relid
         where s.schemaname = 'public'
         order by s.relname`,
  );
  const done: TableMaintenance[] = [];
  for (const row of tables) {
    const action = actionFor({
      rows: Number(row.rows),
      dead: Number(row.dead),
      inserted: Number(row.inserted),
      changed: Number(row.changed),
    });
    if (!action) continue;
    const started = performance.now();
    // VACUUM runs outside any transaction block: a plain statement on the database, not inScope.
    await database.db.execute(sql.raw(`${action} ${row.name}`));
    done.push({ table: row.name, action, ms: Math.round(performance.now() - started) });
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
