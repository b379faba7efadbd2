import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../../src/db/client.ts';
import { readAnchor } from '../../../src/modules/stats/mark.repository.ts';
import type { Mark, Marks } from '../../../src/modules/stats/read-marks.ts';

/** The rolled hour of the marks tests, and their now: 17 minutes into it. */
export const HOUR_13 = new Date('2026-05-20T13:00:00Z');
export const NOW = new Date('2026-05-20T13:17:42.123Z');
export const SEC = 1_000;
export const MIN = 60_000;
/** The instant `offsetMs` after NOW. */
export const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

/**
 * Makes the next read through `marks` find an id bound (docs/uptime-rollup.md "Marks of the current
 * hour"), as it would after a second of reads on a quiet server: an anchor read now when the store has
 * none, then a wait until every transaction in flight on the server (the other test files' too, on
 * PostgreSQL) took its id after the newest anchor. On PGlite nothing is in flight: it returns at once.
 */
export async function anchorsSettled<M extends Mark>(db: Executor, marks: Marks<M>): Promise<void> {
  if (!marks.anchors().length) marks.anchor(await readAnchor(db));
  const { xid } = marks.anchors()[0];
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 10))) {
    const [row] = await queryRows<{ ok: boolean }>(db, sql`select pg_snapshot_xmin(pg_current_snapshot()) > ${xid}::xid8 as ok`);
    if (row.ok) return;
    if (Date.now() - started > 20_000) throw new Error(`a transaction older than the mark anchor ${xid} has been in flight for 20 s`);
  }
}
