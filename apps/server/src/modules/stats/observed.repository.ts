import { PERIOD_STATUS } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The one rule of every reliability figure about maintenance (docs/stats-live.md "Reliability"):
 * a status-2 (maintenance) period is not observed time, neither online nor offline. Every reader
 * drops those periods where it reads periods (`observed('p')`), so a period in progress, an edge
 * or a rolled row counts them nowhere. A literal, as in db/codes.ts: the statement text, its plan
 * and the covering indexes (which hold `status`) stay as they were, so the reads stay index-only.
 */
export const MAINTENANCE = sql.raw(String(PERIOD_STATUS.maintenance));

/** The condition "this period is observed time" on the periods alias `alias` (e.g. `p`). */
export const observed = (alias: string): SQL => sql`${sql.raw(alias)}.status <> ${MAINTENANCE}`;
