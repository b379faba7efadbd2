import { SQL, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * A statement's text and bind values, as drizzle's `PgDialect.sqlToQuery` gives them, for the
 * prepared reads and writes (prepared.ts), which run on every list page and ingestion group.
 *
 * Why not drizzle's own: its builder makes an object with a text and a params array for every chunk
 * of the tree, a copy of its options for every nested `sql`, and checks each chunk's class against
 * up to a dozen entity kinds by walking its prototype chain. For a list page that was about 20 KB of
 * short-lived allocation on the request thread (of ~145 KB per page, measured with
 * `apps/server/test/tools/lists-local.ts`, LISTS_ALLOCATIONS), and each young-generation collection
 * it brings nearer pauses every request in flight (docs/performance-choices.md "Statement text without
 * drizzle's builder": 3-9 % more list pages a second).
 *
 * Only what our statements are made of is walked here: `sql` templates, nested, their text and
 * plain values (each a `$n` parameter, as drizzle binds a value it does not recognize). Anything else
 * (tables, columns, names, `Param`s with an encoder, placeholders, arrays, inlined parameters) is left
 * to drizzle's builder for the whole statement, so the answer is always drizzle's.
 */
export function statementOf(query: SQL): { sql: string; params: unknown[] } {
  const text: string[] = [];
  const params: unknown[] = [];
  return walk(query, text, params) ? { sql: text.join(''), params } : dialect.sqlToQuery(query);
}

const dialect = new PgDialect();
const entityKind = Symbol.for('drizzle:entityKind');

/** Appends `query`'s text and values; false at the first chunk only drizzle's builder knows. */
function walk(query: SQL, text: string[], params: unknown[]): boolean {
  // Set by `.inlineParams()` (private in drizzle's types).
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) {
      const parts = chunk.value;
      for (let i = 0; i < parts.length; i++) text.push(parts[i]);
    } else if (chunk instanceof SQL) {
      if (!walk(chunk, text, params)) return false;
    } else if (typeof chunk === 'function') {
      return false; // a pgEnum
    } else if (chunk !== null && typeof chunk === 'object') {
      // A value object drizzle binds as it is (a Date); an entity, an array or a wrapper is not one.
      const type = (chunk as { constructor?: object }).constructor;
      if (Array.isArray(chunk) || (type && entityKind in type) || typeof (chunk as { getSQL?: unknown }).getSQL === 'function')
        return false;
      params.push(chunk);
      text.push(`$${params.length}`);
    } else if (chunk === undefined) {
      // drizzle writes nothing for it.
    } else {
      params.push(chunk);
      text.push(`$${params.length}`);
    }
  }
  return true;
}
