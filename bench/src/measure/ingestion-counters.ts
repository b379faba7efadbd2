/**
 * What each ingestion run cost the database (PostgreSQL only; the server holds PGlite): the periods
 * opened and the WAL written per event sent, and the median age of the periods the run closed, read
 * before and after the run (measure/ingestion.ts perEventDuring), and how a run's detail says them.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../../apps/server/src/db/client.ts';
import { autovacuumOffWarning } from '../../../apps/server/src/jobs/pglite-maintenance.job.ts';
import type { BenchContext } from '../lib/context.ts';

interface DatabaseCounters {
  /** Status periods opened so far (the sequence behind their ids). */
  opened: number;
  /** The cluster's WAL position in bytes (what every writer has logged so far). */
  walBytes: number;
  /** The database's clock (ISO), to find the periods a run closed. */
  at: string;
}

export type CountersReader =
  | {
      read(): Promise<DatabaseCounters>;
      closedAge(from: string, to: string): Promise<number | undefined>;
      resyncStatuses(): Promise<void>;
      standInForAutovacuum(): Promise<void>;
      close(): Promise<void>;
    }
  | undefined;

/**
 * PostgreSQL only (the server holds PGlite): every event of the walk is meant to flip its device,
 * i.e. open one period (a report that changes nothing is far cheaper), and periods opened per event
 * sent checks that a run measured flips; the WAL per event says what each cost the database.
 */
export async function databaseCounters(
  ctx: BenchContext,
  resync: (ctx: BenchContext, database: Database) => Promise<void>,
): Promise<CountersReader> {
  if (!ctx.databaseUrl) return undefined;
  const database: Database = await openDatabase({ databaseUrl: ctx.databaseUrl });
  /** Asked once (the server's own start-up check). */
  let autovacuumOff: boolean | undefined;
  return {
    async read() {
      const result = (await database.db.execute(
        sql`select (select last_value from device_status_periods_id_seq)::text as opened, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as "walBytes",
                   to_json(clock_timestamp())#>>'{}' as at`,
      )) as { rows: Record<keyof DatabaseCounters, string>[] };
      const row = result.rows[0];
      return { opened: Number(row.opened), walBytes: Number(row.walBytes), at: row.at };
    },
    /**
     * The median age in seconds of the main tenant's periods that closed between two reads: whether a
     * run's flips closed periods begun hours or days before, as a real device's flips do (each device's
     * first flip since the seed), or the ones the previous run opened seconds before (its flips back).
     */
    async closedAge(from, to) {
      const result = (await database.db.execute(
        sql`select percentile_disc(0.5) within group (order by extract(epoch from ended_at - started_at))::text as age
              from device_status_periods
             where tenant_id = ${ctx.main.id}::int and ended_at is not null
               and ended_at > ${from}::timestamptz and ended_at <= ${to}::timestamptz`,
      )) as { rows: { age: string | null }[] };
      const age = result.rows[0]?.age;
      return age === null || age === undefined ? undefined : Number(age);
    },
    resyncStatuses: () => resync(ctx, database),
    /**
     * A PostgreSQL with autovacuum off (this workplace's machines: conf.d/90-ci.conf) never vacuums
     * what the runs leave: 123,000 dead device rows after a whole L run's ingestion, and each run
     * started on the previous runs' dead rows, the run under Pulse reloads on all of them while its
     * baseline (batches of 100 alone) had far fewer. So each run starts vacuumed and analyzed, as a
     * running database with autovacuum (on by default) would be, within its minute, between runs.
     */
    async standInForAutovacuum() {
      if (autovacuumOff === undefined) {
        autovacuumOff = (await autovacuumOffWarning(database)) !== undefined;
        if (autovacuumOff) console.log('  (autovacuum is off on this PostgreSQL: each ingestion run starts with a vacuum analyze)');
      }
      if (autovacuumOff) await database.exec('vacuum analyze');
    },
    close: () => database.close(),
  };
}

/** Per event sent over a run (drained): status periods opened and WAL bytes. */
export interface PerEvent {
  flips: number;
  walBytes: number;
  /** Messages the run sent (answered within it, or cut off or answered after its end). */
  messages: number;
  /** The median age (seconds) of the periods the run's flips closed. */
  closedAgeSeconds?: number;
}

/**
 * Periods opened per event (1.00: every event flipped its device), the messages sent and answered
 * within the run (the difference is what the run's end left in flight), and the WAL each event cost
 * the database (the whole cluster's WAL, the server's jobs included). The first change of a page after
 * a checkpoint logs the whole page (8 KB), so events that touch pages no recent event touched cost
 * far more WAL than the rows they write; the median age of the periods the run closed says whether
 * its flips closed old periods or the previous run's.
 */
export function perEventDetail(perEvent: PerEvent | undefined, answered: number): string {
  if (!perEvent) return '';
  const { flips, walBytes, messages, closedAgeSeconds } = perEvent;
  return (
    `, ${flips.toFixed(2)} status periods opened per event sent (${messages} messages sent, ${answered} answered within the run)` +
    (flips < 0.95 ? ' (not every event changed its device: compare with care)' : '') +
    `, WAL ${(walBytes / 1024).toFixed(1)} KB per event` +
    (closedAgeSeconds === undefined ? '' : `, the closed periods' median age ${ageOf(closedAgeSeconds)}`)
  );
}

/** A period's age as a person reads it: 40 s, 12 min, 5.3 h, 2.1 d. */
function ageOf(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}
