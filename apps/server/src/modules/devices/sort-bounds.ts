/**
 * Bounds of the devices list's sorted pages, kept in this process: for the orders on a column no index
 * serves (lastOnline, createdAt, deviceModel, status, deviceType; devices.repository.ts BOUNDED_SORTS).
 *
 * `last_online` is not indexed on purpose (every heartbeat moves it, and an index on it would make each
 * heartbeat's update non-HOT, an entry in every index of the table: docs/decisions.md 8), nor are the
 * others, so a page in such an order is a top-N sort of every device the list's filter holds (at L,
 * 100,000 rows a page). A bound is the sort key (the column's value, then the id) of the last row of a
 * full page answered before, and how many rows of the order reach it (that page's offset + size). A
 * later page that needs at most that many rows sorts only the devices whose key is at or before the
 * bound in the page's order, when at least as many as it needs still are (checked in the page's own
 * statement; otherwise the same statement sorts them all: devices.repository.ts boundedSkip). A page is
 * therefore exact whatever changed since the bound was kept (a device that checked in, changed model or
 * status, was removed or was added); a stale bound costs one more scan, and every full page answered
 * keeps a new one. Only a hint: several processes on one database each keep their own
 * (docs/decisions.md 51).
 */

export interface SortBound {
  /** The sort column's value in the last row of a full page (never null), as PostgreSQL's text: exact. */
  key: string;
  /** That row's id (the order's tie-break). */
  id: number;
  /** How many rows of the order end at that row: the page's offset + size. */
  rows: number;
}

/** Lists (tenant, filter, order) whose bounds are kept; the least recently answered is dropped first. */
const MAX_LISTS = 1_000;
/** Bounds kept per list (one per depth answered); the oldest is dropped first. */
const MAX_BOUNDS_PER_LIST = 16;

export class SortBounds {
  private readonly lists = new Map<string, SortBound[]>();

  /** The nearest bound of `list` reached by at least `rows` rows of its order; undefined without one. */
  boundFor(list: string, rows: number): SortBound | undefined {
    let best: SortBound | undefined;
    for (const bound of this.lists.get(list) ?? []) if (bound.rows >= rows && (!best || bound.rows < best.rows)) best = bound;
    return best;
  }

  /** Keeps the bound a full page ends at, in place of any kept for the same depth. */
  keep(list: string, bound: SortBound): void {
    const kept = (this.lists.get(list) ?? []).filter((b) => b.rows !== bound.rows);
    kept.push(bound);
    if (kept.length > MAX_BOUNDS_PER_LIST) kept.shift();
    this.lists.delete(list);
    this.lists.set(list, kept);
    if (this.lists.size > MAX_LISTS) this.lists.delete(this.lists.keys().next().value as string);
  }

  /**
   * A page that came back short says the list holds fewer than `rows` rows now: bounds at that depth
   * or deeper would only cost a second scan each time.
   */
  dropFrom(list: string, rows: number): void {
    const kept = this.lists.get(list);
    if (!kept) return;
    const left = kept.filter((b) => b.rows < rows);
    if (left.length > 0) this.lists.set(list, left);
    else this.lists.delete(list);
  }
}
