import { sql, type SQL } from 'drizzle-orm';
import type { Scope } from './scope.ts';

/** Escapes LIKE wildcards so a user's `%` or `_` matches itself. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `ILIKE` pattern for "contains `text`", case-insensitive, wildcards escaped. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
/** `ILIKE` pattern for "starts with `text`". */
export const prefixPattern = (text: string) => `${escapeLike(text)}%`;

/** The scope's tenant condition on `column` (written explicitly; RLS is only the backstop). */
export function tenantCondition(scope: Scope, column: SQL): SQL {
  return scope.kind === 'tenant' ? sql`${column} = ${scope.tenantId}` : sql`true`;
}

/** ASC/DESC as SQL; the contract's enum already limits the value. */
export const direction = (dir: 'ASC' | 'DESC') => (dir === 'DESC' ? sql`desc` : sql`asc`);

/** A timestamp column as an ISO string: PGlite answers text, node-postgres a Date. */
export const toIso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
export const toIsoOrNull = (value: Date | string | null): string | null => (value === null ? null : toIso(value));

/**
 * A timestamptz as PostgreSQL's own text, for an instant read by one statement and written back by the
 * next: a JS Date keeps milliseconds only, and a period closed at the millisecond below an instant with
 * microseconds (seeded history, SQL-computed instants) ends before it starts and overlaps its neighbour.
 * Both databases parse the text back exactly; JS `new Date(text)` still reads it (to the millisecond).
 */
export const exactInstant = (expression: SQL): SQL => sql`(${expression})::text`;
