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
