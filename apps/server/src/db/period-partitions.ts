import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.ts';

/** Months of status history created ahead of the current one, so a closed period never waits in the default partition. */
export const MONTHS_AHEAD = 2;

/**
 * Creates the status history's monthly partitions (schema/monitoring.ts, migration 0014) after the
 * newest one, up to MONTHS_AHEAD months after `now`'s month; returns how many it created. Idempotent;
 * the function moves periods already closed in a new month out of the default partition first. Runs as
 * the tables' owner, outside any tenant scope: a new partition gets no right for the application role.
 */
export async function addPeriodPartitions(database: Database, now: Date): Promise<number> {
  const upto = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
  const [row] = await queryRows<{ made: number }>(
    database.db,
    sql`select add_period_partitions(${upto.toISOString()}::timestamptz) as made`,
  );
  return Number(row.made);
}

/** The status history's partitions, oldest first, the default (open periods) last. */
export async function periodPartitions(database: Database): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    database.db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'device_status_periods'::regclass
         order by c.relname = 'device_status_periods_open', c.relname = 'device_status_periods_before' desc, c.relname`,
  );
  return rows.map((r) => r.name);
}
