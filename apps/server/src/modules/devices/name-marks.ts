import { TenantMarkStore } from '../../db/tenant-marks.ts';

/**
 * Marks of a tenant's devices in the list's default order (name, then id), kept in this process: the
 * key of every `NAME_MARK_EVERY`-th device and the number of devices, read once with the tenant's
 * device order version (schema/counts.ts deviceOrderVersions). A later page then starts at the mark at or before its offset
 * and skips fewer than `NAME_MARK_EVERY` rows, instead of every row before it (up to half the list
 * from the nearer end: at L, 25,000). The page's statement reads the version again and the page is
 * kept only if it is unchanged, so a device added, deleted, renamed or removed since the marks were
 * read (by this process or another) is never missed: the marks are dropped and the page read by
 * offset (devices.service.ts listDevices; docs/performance-choices.md "Lists, every page different"). While
 * the version holds, the number of devices read with the marks is also the list's total: every change
 * of it (a device added, removed or deleted) changes the version.
 */

/** Rows between two marks: the most a page read from a mark skips. */
export const NAME_MARK_EVERY = 128;

export interface NameMark {
  /** `name_key` (lower(name)) and id of the device at the mark's position. */
  key: string;
  id: number;
}

export interface NameMarks {
  /** The tenant's device order version they were read at (bigint as text: compared, never computed). */
  version: string;
  /** marks[i] is the device at position i * NAME_MARK_EVERY. */
  marks: NameMark[];
  /** The tenant's devices (not removed) at that version: the list's total while the version holds. */
  count: number;
}

/** Where a page starts: the mark at or before its offset and how many rows to skip after it. */
export interface MarkedStart {
  mark: NameMark;
  skip: number;
  version: string;
  /** The list's total at `version`. */
  count: number;
}

/**
 * The marks of one app's database (the devices module makes one: ids and versions are a database's
 * own). One read of a tenant's marks at a time (`readIfDue`, db/tenant-marks.ts).
 */
export class NameMarkStore extends TenantMarkStore<NameMarks> {
  /** Marks read under two marks' worth of devices start no page: not kept. */
  constructor(now: () => number) {
    super(now, (marks) => marks.marks.length >= 2);
  }

  /** The start of a page at `offset` from `tenantId`'s kept marks; undefined without marks or before the second mark. */
  startOf(tenantId: number, offset: number): MarkedStart | undefined {
    const entry = this.marksOf(tenantId);
    if (!entry) return undefined;
    const index = Math.floor(offset / NAME_MARK_EVERY);
    if (index === 0 || index >= entry.marks.length) return undefined;
    return { mark: entry.marks[index], skip: offset - index * NAME_MARK_EVERY, version: entry.version, count: entry.count };
  }
}
