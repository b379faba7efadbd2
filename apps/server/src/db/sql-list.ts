import { sql, type SQL } from 'drizzle-orm';
import { toIso } from './sql-fragments.ts';

/**
 * Small SQL pieces shared by the operations lists (cases, comments, alerts,
 * licenses): the explicit tenant condition, ORDER BY from an allow-listed sort,
 * paging, and row value conversions.
 */

/** `column = tenant` for a tenant caller, `true` for the superAdmin (RLS still applies underneath). */
export { tenantCondition as inTenant, containsPattern } from './sql-fragments.ts';

/** ORDER BY the requested column (from the contract's allow-list), then `tieBreak` so pages are stable. */
export function orderBy<S extends string>(
  sort: { field: S; dir: 'ASC' | 'DESC' } | undefined,
  columns: Record<S, SQL>,
  tieBreak: SQL,
): SQL {
  if (!sort) return sql`order by ${tieBreak}`;
  const dir = sort.dir === 'ASC' ? sql.raw('asc') : sql.raw('desc');
  return sql`order by ${columns[sort.field]} ${dir} nulls last, ${tieBreak}`;
}

/**
 * A page's row count as SQL. Up to `LITERAL_LIMIT_MAX` it is written into the statement text: list
 * reads run prepared with generic plans (db/prepared.ts), and a generic plan knows nothing of a bound
 * `limit $n`, so PostgreSQL guesses a tenth of the rows. For the alerts page that guess (750 of 7,500
 * rows at S) turned the deferred join into a hash join over a sequential scan of every alert of the
 * tenant: 7.2 ms instead of 1.2 ms. With the page size in the text each size has its own statement
 * (the sizes screens use, and the shorter last pages read from the end, all at most 100 rows), planned
 * for that many rows. Larger pages stay bound, so a caller cannot make one statement per count up to
 * the contract's maximum.
 */
export function pageLimit(limit: number): SQL {
  return Number.isSafeInteger(limit) && limit >= 0 && limit <= LITERAL_LIMIT_MAX ? sql.raw(String(limit)) : sql`${limit}`;
}
const LITERAL_LIMIT_MAX = 100;

export const pageOf = (q: { offset: number; limit: number }): SQL => sql`limit ${pageLimit(q.limit)} offset ${q.offset}`;

export const allOf = (conditions: SQL[]): SQL => (conditions.length ? sql.join(conditions, sql` and `) : sql`true`);

/** A timestamp as both drivers return it (Date or text), as ISO 8601 UTC. */
export const isoOf = (value: unknown): string => toIso(value as string | Date);
export const isoOrNull = (value: unknown): string | null => (value == null ? null : isoOf(value));

/** Parameter for "now" in SQL: always pass the clock's time, never the database's now(). */
export const at = (now: Date): SQL => sql`${now.toISOString()}::timestamptz`;

/**
 * Which end to page from. A page near the end of a list (the last page of 100,000 rows) would skip
 * almost every row from the front; when the exact total is known (kept counts), the same rows are
 * the first ones of the reversed order, so the query skips from the back and the page is reversed.
 */
export interface PagePlan {
  reverse: boolean;
  offset: number;
  limit: number;
}

export function planPage(q: { offset: number; limit: number }, total: number | undefined): PagePlan {
  if (total === undefined || q.offset >= total) return { reverse: false, offset: q.offset, limit: q.limit };
  const fromEnd = Math.max(0, total - q.offset - q.limit);
  if (fromEnd >= q.offset) return { reverse: false, offset: q.offset, limit: q.limit };
  return { reverse: true, offset: fromEnd, limit: Math.min(q.limit, total - q.offset) };
}

/** The page's rows in the requested order (a reversed query answers them last first). */
export const inPageOrder = <T>(plan: PagePlan, rows: T[]): T[] => (plan.reverse ? rows.reverse() : rows);

/**
 * ORDER BY like `orderBy` (requested column with nulls last, then the tie-break column), or its exact
 * reverse (every direction flipped, nulls first) for a page planned from the end.
 */
export function pageOrder<S extends string>(
  sort: { field: S; dir: 'ASC' | 'DESC' } | undefined,
  columns: Record<S, SQL>,
  tieBreak: { column: SQL; dir: 'ASC' | 'DESC' },
  reverse: boolean,
): SQL {
  const dir = (d: 'ASC' | 'DESC') => sql.raw((d === 'ASC') !== reverse ? 'asc' : 'desc');
  const tie = sql`${tieBreak.column} ${dir(tieBreak.dir)}`;
  if (!sort) return sql`order by ${tie}`;
  return sql`order by ${columns[sort.field]} ${dir(sort.dir)} ${sql.raw(reverse ? 'nulls first' : 'nulls last')}, ${tie}`;
}

export const limitOf = (plan: PagePlan): SQL => pageOf(plan);

/**
 * A later page read in the same statement as its total `n` (a kept count the statement reads itself:
 * `(select n from kept)`), so the two take one round instead of two. The end to skip from is chosen
 * before the statement, from the list's total as last seen (`hint`): a wrong guess costs time, never
 * rows, because the reversed read takes its offset from the exact `n` in the statement. (Choosing the
 * end inside the statement, with a branch per end gated on `n`, put the gate where PostgreSQL's
 * generic plan read it as a filter on every row of the closed branch: L, alerts 173 -> 28 req/s.)
 * Both read a whole page (`limit` stays in the text, see pageLimit); `pageFromTotal` drops what a
 * reversed read holds before the asked offset once the total is known.
 */
export interface PageEnd {
  reverse: boolean;
  limit: SQL;
}

export function pageEnd(q: { offset: number; limit: number }, n: SQL, hint: number | undefined): PageEnd {
  const limit = pageLimit(q.limit);
  // Without a hint: from the front, as planPage does without a total.
  const reverse = planPage(q, hint).reverse;
  return {
    reverse,
    limit: reverse ? sql`limit ${limit} offset greatest(0, ${n} - ${q.offset} - ${limit})` : sql`limit ${limit} offset ${q.offset}`,
  };
}

/** The page's rows (fetched in the requested order) read through `end`, once the exact total is known. */
export function pageFromTotal<T>(q: { offset: number; limit: number }, end: PageEnd, total: number, rows: T[]): T[] {
  if (q.offset >= total) return [];
  if (!end.reverse) return rows;
  const wanted = Math.min(q.limit, total - q.offset);
  return rows.length > wanted ? rows.slice(rows.length - wanted) : rows;
}
