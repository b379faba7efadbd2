/**
 * Bind values written into a statement's text as literals, for `EXECUTE name(...)` of a prepared
 * statement: PGlite's (a utility statement takes no bind parameters: prepared.ts pgliteRunner) and a
 * PostgreSQL read's sent with its transaction's first commands (deferred-boundaries.ts).
 */

/** A SQL string literal (standard_conforming_strings is on: only the quote is special). */
const quoted = (text: string) => `'${withoutNul(text).replace(/'/g, "''")}'`;

/**
 * A NUL cannot be written into a statement's text (PGlite reads the text as a C string and would cut
 * it there): refused as PostgreSQL refuses a bound value holding one, SQLSTATE 22021, which the error
 * handler answers as a 400.
 */
function withoutNul(text: string): string {
  if (text.includes('\0')) throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  return text;
}

/** An array element inside a PostgreSQL array literal: double quotes, with `"` and `\` escaped. */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `"${withoutNul(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  throw new Error(`prepared statement: unsupported array element ${typeof value}`);
}

/** A bind value written as a literal of unknown type: PostgreSQL coerces it to the prepared parameter's type. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return quoted(`{${value.map(element).join(',')}}`);
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('prepared statement: non-finite number');
    return quoted(String(value));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quoted(value);
  throw new Error(`prepared statement: unsupported value ${typeof value}`);
}
