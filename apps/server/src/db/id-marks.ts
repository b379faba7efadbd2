import { TenantMarkStore, type VersionedMarks } from './tenant-marks.ts';

/**
 * A tenant's case or alert id marks kept in this process (db/tenant-marks.ts): the rows of its
 * `case_id_marks` or `alert_id_marks` (how many cases or alerts each block of 1,024 ids holds,
 * schema/counts.ts), newest block first, read once with the tenant's order version
 * (`case_order_versions`, `alert_order_versions`: bumped with the marks whenever a case or alert is
 * added or deleted, migration 0019). A later page of the list in its default order then starts at the
 * block holding its first row, a bound and a skip given as values, instead of summing the tenant's
 * marks in its statement (a sort and a window over every block, 180 of them at L: about 60 % of an
 * alerts page's CPU on PostgreSQL, a third of its statement on PGlite; docs/performance-choices.md
 * "Id marks kept in memory"). The page's statement reads the version again and the page is answered
 * only if it is the one the marks were read at (kept-counts.ts keptMarkedPage).
 */

/** Ids per mark row (schema/counts.ts: bucket = id >> 10). */
export const IDS_PER_MARK = 1024;

export interface IdMarks extends VersionedMarks {
  /** The tenant's blocks that hold rows, newest first: `bucket` (id >> 10) and how many rows it holds. */
  blocks: { bucket: number; total: number }[];
  /** before[i]: the rows in the blocks newer than blocks[i]. */
  before: number[];
  /** Every case or alert of the tenant at `version`: the list's total while it holds. */
  count: number;
}

/** Where a page starts: below the id `idBelow` (the end of its first row's block), after `skip` rows. */
export interface IdMarkedStart {
  idBelow: number;
  skip: number;
  version: string;
  /** The list's total at `version`. */
  count: number;
}

/** The marks of one list (cases or alerts) of one app's database. */
export class IdMarkStore extends TenantMarkStore<IdMarks> {
  /** A tenant whose rows fit in one block gains nothing from marks: not kept. */
  constructor(now: () => number) {
    super(now, (marks) => marks.blocks.length >= 2);
  }

  /** The start of a page at `offset` > 0 within the list; undefined without marks or past its end. */
  startOf(tenantId: number, offset: number): IdMarkedStart | undefined {
    const entry = this.marksOf(tenantId);
    if (!entry || offset <= 0 || offset >= entry.count) return undefined;
    // The last block whose newer blocks hold at most `offset` rows holds the page's first row.
    let lo = 0;
    let hi = entry.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (entry.before[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return {
      idBelow: (entry.blocks[lo].bucket + 1) * IDS_PER_MARK,
      skip: offset - entry.before[lo],
      version: entry.version,
      count: entry.count,
    };
  }
}

/** Marks as read (blocks newest first), with their running totals; a block left empty by deletes starts no page. */
export function idMarksOf(version: string, read: { bucket: number; total: number }[]): IdMarks {
  const blocks = read.filter((block) => block.total > 0);
  const before: number[] = [];
  let count = 0;
  for (const block of blocks) {
    before.push(count);
    count += block.total;
  }
  return { version, blocks, before, count };
}
