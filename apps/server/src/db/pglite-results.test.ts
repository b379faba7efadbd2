import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolReader, queryMessage } from './pglite-protocol.mjs';
import { resultsOf } from './pglite-results.mjs';

/**
 * The worker's result sets against PGlite's own parseResults, on the messages of real exchanges:
 * every row mode, with and without parsers of the caller's (drizzle's identity parsers for dates,
 * and one that marks what it parsed), over values of every kind, several statements in one
 * exchange, rows changed, and no rows.
 */
const { serialize } = protocol;

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`
    create table sample (id int primary key, name text, on_line boolean, seen timestamptz, day date, span interval,
      doc jsonb, raw json, tags text[], counts int[], ratio numeric, big bigint, small smallint, real_value real,
      blob bytea, key uuid);
    insert into sample select g, case when g % 4 = 0 then null else 'Gerät ' || g end, g % 2 = 0,
      timestamptz '2026-12-04 10:00:00+00' + g * interval '1 minute', date '2026-12-01' + g, g * interval '90 seconds',
      jsonb_build_object('n', g), json_build_array(g, 'x'), array['a' || g, null], array[g, g + 1], g / 7.0,
      9007199254740993 + g, g, g / 3.0, decode('00ff' || lpad(to_hex(g), 2, '0'), 'hex'),
      ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid
    from generate_series(1, 30) g;
  `);
});
afterAll(() => db.close());

/** The messages of one exchange, read as the worker reads them. */
async function messagesOf(parts: Uint8Array[]): Promise<never> {
  const reader = new ProtocolReader();
  await db.execProtocolRawStream(Buffer.concat(parts), { syncToFs: false, onRawData: (chunk: Uint8Array) => reader.push(chunk) });
  expect(reader.error).toBeUndefined();
  return reader.messages as never;
}

const extended = (text: string) => [
  serialize.parse({ text }),
  serialize.bind({ values: [] }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
];

const identity = (value: string) => value;
/** drizzle's PGlite driver: dates, timestamps and intervals as PostgreSQL wrote them. */
const drizzleParsers = { 1082: identity, 1114: identity, 1184: identity, 1186: identity };
/** A caller's parser for a type PGlite parses too (int4), and one for a type it has no parser of (uuid). */
const marking = { 23: (value: string, type?: number) => `int ${value} (${type})`, 2950: (value: string) => value.toUpperCase() };

const OPTIONS = {
  'no options': undefined,
  'objects, no parsers': { rowMode: 'object' as const },
  'arrays, no parsers': { rowMode: 'array' as const },
  "arrays with drizzle's parsers": { rowMode: 'array' as const, parsers: drizzleParsers },
  "objects with drizzle's parsers": { rowMode: 'object' as const, parsers: drizzleParsers },
  'arrays with parsers of its own': { rowMode: 'array' as const, parsers: marking },
  'parsers and no row mode': { parsers: marking },
};

describe("the embedded database's result sets", () => {
  const exchanges = {
    'rows of every kind of value': () => extended('select * from sample order by id'),
    'duplicate column names': () => extended('select id, name, id, name as id from sample where id < 5 order by 1'),
    'no rows': () => extended('select * from sample where false'),
    'several statements, rows changed among them': () => [
      queryMessage(
        `select id, seen from sample where id < 3 order by id; update sample set small = small + 1 where id < 6;
         insert into sample (id) values (100), (101) returning id, key; delete from sample where id >= 100;
         create temporary table scratch (n int); select count(*) from sample; begin; commit`,
      ),
      serialize.sync(),
    ],
    'a statement without rows': () => [queryMessage('set local statement_timeout = 0'), serialize.sync()],
    'nothing at all': () => [serialize.sync()],
  };

  for (const [name, parts] of Object.entries(exchanges)) {
    it(`builds ${name} as PGlite's parseResults does`, async () => {
      const messages = await messagesOf(parts());
      for (const [label, options] of Object.entries(OPTIONS)) {
        const ours = resultsOf(messages, db.parsers, options);
        expect(ours, label).toEqual(parse.parseResults(messages, db.parsers, options));
        // toEqual leaves out undefined properties and key order: the same keys, in the same order.
        expect(
          ours.map((set) => Object.keys(set)),
          label,
        ).toEqual(parse.parseResults(messages, db.parsers, options).map((set) => Object.keys(set)));
      }
    });
  }

  it("uses the caller's parsers over PGlite's, and PGlite's for the rest", async () => {
    const [set] = resultsOf(await messagesOf(extended('select id, key, seen, big, doc from sample where id = 7')), db.parsers, {
      rowMode: 'array',
      parsers: marking,
    });
    expect(set.rows).toEqual([
      ['int 7 (23)', '00000000-0000-0000-0000-000000000007'.toUpperCase(), new Date('2026-12-04T10:07:00Z'), 9007199254741000n, { n: 7 }],
    ]);
  });
});
