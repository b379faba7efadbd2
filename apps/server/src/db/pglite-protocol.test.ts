import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_PROPERTIES, parseMessage, ProtocolReader, queryMessage } from './pglite-protocol.mjs';

/**
 * The worker's protocol reader against PGlite's own parser, on the same exchanges of a real PGlite:
 * what parseResults makes of their messages, and the errors, must be the same.
 */
const { serialize } = protocol;

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`
    create table probe (id int primary key, name text not null, note text, on_line boolean, seen timestamptz,
      doc jsonb, tags text[], ratio numeric, big bigint, constraint probe_name_unique unique (name));
    insert into probe select g, 'Gerät ' || g || ' ✓ 🛰', case when g % 3 = 0 then null else repeat('x', g) end, g % 2 = 0,
      timestamptz '2026-12-04 10:00:00+00' + g * interval '1 minute', jsonb_build_object('n', g, 's', 'é"\\'),
      array['a' || g, null, 'c,d'], g / 7.0, 9007199254740993 + g
    from generate_series(1, 400) g;
  `);
});
afterAll(() => db.close());

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** One exchange's raw output, chunk by chunk as PGlite wrote it (each copied out of the wasm memory). */
async function rawChunks(message: Uint8Array): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  await db.execProtocolRawStream(message, {
    syncToFs: false,
    onRawData: (chunk: Uint8Array) => {
      chunks.push(chunk.slice());
      return chunk.length;
    },
  });
  return chunks;
}

/** The exchange through PGlite's parser: its messages, or the error it throws. */
async function viaPglite(message: Uint8Array): Promise<{ messages?: unknown[]; error?: unknown }> {
  try {
    return { messages: await db.execProtocolStream(message, { syncToFs: false }) };
  } catch (error) {
    return { error };
  }
}

function viaReader(chunks: Uint8Array[]): { messages: unknown[]; error?: unknown; rest?: Uint8Array } {
  const reader = new ProtocolReader();
  for (const chunk of chunks) reader.push(chunk);
  return reader;
}

const extended = (text: string) =>
  concat([
    serialize.parse({ text }),
    serialize.bind({ values: [] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);

const errorFields = (e: unknown) => {
  const err = e as Record<string, unknown> & Error;
  return { message: err.message, name: err.name, ...Object.fromEntries(ERROR_PROPERTIES.map((f) => [f, err[f]])) };
};

describe("the embedded database's protocol reader", () => {
  const statements = {
    'rows of every kind of value, as objects': extended('select * from probe order by id limit 25 offset 3'),
    'many rows (the output spans several chunks)': extended('select * from probe order by id'),
    'a simple query of several statements': concat([
      serialize.query('select id, name from probe where id < 4; select count(*) from probe; begin; commit'),
      serialize.sync(),
    ]),
    'a description with parameters': concat([
      serialize.parse({ text: 'select name from probe where id = $1 and on_line = $2' }),
      serialize.describe({ type: 'S' }),
      serialize.sync(),
    ]),
    'no rows, and an empty query': concat([serialize.query('select * from probe where false; ;'), serialize.sync()]),
  };

  for (const [name, message] of Object.entries(statements)) {
    it(`reads ${name} as PGlite's parser does`, async () => {
      const theirs = await viaPglite(message);
      const chunks = await rawChunks(message);
      if (message === statements['many rows (the output spans several chunks)']) expect(chunks.length).toBeGreaterThan(1);
      const ours = viaReader(chunks);
      expect(theirs.error).toBeUndefined();
      expect(ours.error).toBeUndefined();
      expect(ours.rest).toBeUndefined();
      for (const rowMode of ['object', 'array'] as const) {
        expect(parse.parseResults(ours.messages as never, db.parsers, { rowMode })).toEqual(
          parse.parseResults(theirs.messages as never, db.parsers, { rowMode }),
        );
      }
      expect(parse.parseDescribeStatementResults(ours.messages as never)).toEqual(
        parse.parseDescribeStatementResults(theirs.messages as never),
      );
      const names = (messages: unknown[]) =>
        (messages as { name: string }[])
          .map((m) => m.name)
          .filter((n) => ['rowDescription', 'dataRow', 'commandComplete', 'readyForQuery', 'parameterDescription'].includes(n));
      expect(names(ours.messages)).toEqual(names(theirs.messages!));
    });
  }

  it('reads the same when every message is cut across chunks', async () => {
    const message = statements['rows of every kind of value, as objects'];
    const whole = concat(await rawChunks(message));
    const expected = parse.parseResults(viaReader([whole]).messages as never, db.parsers);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < whole.length; at += size) pieces.push(whole.subarray(at, at + size));
      const ours = viaReader(pieces);
      expect(ours.rest).toBeUndefined();
      expect(parse.parseResults(ours.messages as never, db.parsers)).toEqual(expected);
    }
  });

  it("turns an error into PGlite's DatabaseError with its fields, and keeps nothing after it", async () => {
    const duplicate = concat([serialize.query(`insert into probe (id, name) values (1000, 'Gerät 1 ✓ 🛰')`), serialize.sync()]);
    const unknown = extended('select nope from probe');
    for (const message of [duplicate, unknown]) {
      const theirs = await viaPglite(message);
      const ours = viaReader(await rawChunks(message));
      expect(theirs.error).toBeDefined();
      expect(ours.error).toBeInstanceOf((theirs.error as object).constructor as new () => unknown);
      expect(errorFields(ours.error)).toEqual(errorFields(theirs.error));
      expect(ours.messages.filter((m) => (m as { name: string }).name !== 'readyForQuery')).toEqual([]);
    }
    expect(errorFields(viaReader(await rawChunks(duplicate)).error)).toMatchObject({
      code: '23505',
      constraint: 'probe_name_unique',
      table: 'probe',
    });
  });
});

describe("the worker's own frontend messages", () => {
  const texts = ['', 'COMMIT', `select 'Gerät ✓ 🛰' as "näme", $1::int`, 'x'.repeat(70_000)];

  it("are PGlite's serializer's bytes", () => {
    for (const text of texts) {
      expect(Buffer.from(queryMessage(text)).equals(Buffer.from(serialize.query(text))), text.slice(0, 40)).toBe(true);
      expect(Buffer.from(parseMessage(text)).equals(Buffer.from(serialize.parse({ text }))), text.slice(0, 40)).toBe(true);
    }
  });

  it('run on PGlite as its own messages do', async () => {
    const text = `select name, note from probe where id = 4`;
    const ours = concat([
      parseMessage(text),
      serialize.bind({ values: [] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    expect(parse.parseResults(viaReader(await rawChunks(ours)).messages as never, db.parsers)).toEqual(
      parse.parseResults(viaReader(await rawChunks(extended(text))).messages as never, db.parsers),
    );
    const simple = concat([queryMessage(text), serialize.sync()]);
    expect(parse.parseResults(viaReader(await rawChunks(simple)).messages as never, db.parsers)[0].rows).toEqual([
      { name: 'Gerät 4 ✓ 🛰', note: 'xxxx' },
    ]);
  });
});
