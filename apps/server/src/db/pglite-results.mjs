// An exchange's messages (pglite-protocol.mjs) as result sets, on the embedded database's thread.
// Plain JavaScript, as the worker.
//
// Why not PGlite's parse.parseResults: it builds each row through `map` and (for objects)
// `Object.fromEntries` of pairs, looking the parser up per value, and when a call passes parsers of
// its own, as drizzle's driver does with its queries (dates and timestamps kept as text), it first
// copies PGlite's ~320 default parsers and those into a new object, about 70 microseconds a call
// (docs/performance-choices.md "Result sets without PGlite's parser merge"). This builds the same
// result sets, each column's parser looked up once per row description, each row filled in a loop.
import { types } from '@electric-sql/pglite';

/** Commands whose tag's count is rows changed (PGlite's parseResults adds these up into affectedRows). */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** A value as PGlite's parseType parses it with `parser` (the column's, or none). */
const valueOf = (text, parser, type) => (text === null ? null : parser ? parser(text, type) : text);

/**
 * The result sets of `messages`, equal to PGlite's `parse.parseResults(messages, defaultParsers,
 * options)`: per CommandComplete one set of the rows since the last one (arrays or objects by
 * `options.rowMode`, each value through `options.parsers`' parser for its type, else
 * `defaultParsers`', else PGlite's own, else the text), the fields, the command, the rows changed
 * so far (summed over the sets, as PGlite does) and the tag's row count; one empty set when none.
 */
export function resultsOf(messages, defaultParsers, options) {
  const own = options?.parsers;
  const arrays = options?.rowMode === 'array';
  const sets = [];
  let fields = [];
  let parsers = [];
  let rows = [];
  let affectedRows = 0;
  for (const message of messages) {
    switch (message.name) {
      case 'rowDescription':
        fields = message.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
        parsers = fields.map(({ dataTypeID: type }) => own?.[type] ?? defaultParsers[type] ?? types.parsers[type]);
        break;
      case 'dataRow': {
        const values = message.fields;
        if (arrays) {
          const row = new Array(values.length);
          for (let i = 0; i < values.length; i++) row[i] = valueOf(values[i], parsers[i], fields[i].dataTypeID);
          rows.push(row);
        } else {
          const row = {};
          for (let i = 0; i < values.length; i++) row[fields[i].name] = valueOf(values[i], parsers[i], fields[i].dataTypeID);
          rows.push(row);
        }
        break;
      }
      case 'commandComplete': {
        const parts = message.text.split(' ');
        const command = parts[0];
        const rowCount = parseInt(parts[parts.length - 1], 10);
        if (COUNTED.has(command)) affectedRows += rowCount;
        const set = { rows, fields, command, affectedRows };
        if (!Number.isNaN(rowCount)) set.rowCount = rowCount;
        sets.push(set);
        fields = [];
        parsers = [];
        rows = [];
        break;
      }
      default:
    }
  }
  if (sets.length === 0) sets.push({ affectedRows: 0, rows: [], fields: [] });
  return sets;
}
