import { sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../../db/scope.ts';

/**
 * Small SQL pieces shared by the operations lists (cases, comments, alerts,
 * licenses): the explicit tenant condition, ORDER BY from an allow-listed sort,
 * paging, and row value conversions.
 */

/** `column = tenant` for a tenant caller, `true` for the superAdmin (RLS still applies underneath). */
export const inTenant = (scope: Scope, column: SQL): SQL => (scope.kind === 'tenant' ? sql`${column} = ${scope.tenantId}` : sql`true`);

/** ORDER BY the requested column (from the contract's allow-list), then `tieBreak` so pages are stable. */
export function orderBy<S extends string>(sort: { field: S; dir: 'ASC' | 'DESC' } | undefined, columns: Record<S, SQL>, tieBreak: SQL): SQL {
  if (!sort) return sql`order by ${tieBreak}`;
  const dir = sort.dir === 'ASC' ? sql.raw('asc') : sql.raw('desc');
  return sql`order by ${columns[sort.field]} ${dir} nulls last, ${tieBreak}`;
}

export const pageOf = (q: { offset: number; limit: number }): SQL => sql`limit ${q.limit} offset ${q.offset}`;

export const allOf = (conditions: SQL[]): SQL => (conditions.length ? sql.join(conditions, sql` and `) : sql`true`);

/** Case-insensitive substring pattern for ILIKE with the wildcards of the text escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamp as both drivers return it (Date or text), as ISO 8601 UTC. */
export const isoOf = (value: unknown): string => new Date(value as string | Date).toISOString();
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

export const limitOf = (plan: PagePlan): SQL => sql`limit ${plan.limit} offset ${plan.offset}`;
