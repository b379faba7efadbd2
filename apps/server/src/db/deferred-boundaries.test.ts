import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedDatabase, usesPostgres, workerDatabaseUrl } from '../../test/database.ts';
import { openDatabase, queryRows, type Database } from './client.ts';
import { runCommands } from './commands.ts';
import { deferBoundaries } from './deferred-boundaries.ts';
import { preparedExecutor } from './prepared.ts';
import { inReadScope } from './read-scope.ts';
import { allTenants } from './scope.ts';

/** PostgreSQL only: PGlite's transactions send BEGIN with their first statement on their own thread (pglite-remote.ts). */
describe.runIf(usesPostgres())("a transaction's boundaries on PostgreSQL", () => {
  let database: Database;
  let sent: string[];
  const txid = sql`select txid_current()::text as id, ${1}::int as one`;

  beforeAll(async () => {
    await sharedDatabase(); // migrated
    // Every text a client sends, from a pool opened after the spy (clients keep the query they were checked out with).
    sent = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(client, ...)
    const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      sent.push(typeof config === 'string' ? config : (config.text ?? ''));
      return query.apply(this, args);
    });
    database = await openDatabase({ databaseUrl: workerDatabaseUrl() });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await database.close();
  });

  it('goes with its commands as one query, and its statements run in that transaction', async () => {
    sent.length = 0;
    const rows = await database.db.transaction(async (tx) => {
      await runCommands(tx, "set local app.tenant_id = '42'");
      const [a] = await queryRows<{ id: string }>(tx, txid);
      const [b] = await queryRows<{ id: string; tenant: string }>(
        tx,
        sql`select txid_current()::text as id, current_setting('app.tenant_id') as tenant`,
      );
      return { a, b };
    });
    expect(rows.b).toEqual({ id: rows.a.id, tenant: '42' });
    expect(sent[0]).toBe("begin;set local app.tenant_id = '42'");
    expect(sent.slice(1).filter((text) => text === 'begin')).toEqual([]);
    expect(sent.at(-1)).toBe('commit');
    // `set local` ended with the transaction.
    const [after] = await queryRows<{ tenant: string | null }>(database.db, sql`select current_setting('app.tenant_id', true) as tenant`);
    expect(after.tenant ?? '').toBe('');
  });

  it('is sent on its own before a first statement with values', async () => {
    sent.length = 0;
    const [a, b] = await database.db.transaction(async (tx) => [
      ...(await queryRows<{ id: string }>(tx, txid)),
      ...(await queryRows<{ id: string }>(tx, txid)),
    ]);
    expect(a.id).toBe(b.id);
    expect(sent.slice(0, 2)).toEqual(['begin', 'select txid_current()::text as id, $1::int as one']);
  });

  it("answers the caller's own statements as they would be answered alone", async () => {
    const both = 'select 1 as a; select 2 as b';
    const answers = await database.db.transaction(async (tx) => ({
      one: await queryRows<{ seven: number }>(tx, sql.raw('select 7 as seven')),
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- two statements answer an array of results, which drizzle's type does not say
      many: (await tx.execute(sql.raw(both))) as unknown as { rows: unknown[] }[],
    }));
    expect(answers.one).toEqual([{ seven: 7 }]);
    const plain = new pg.Client({ connectionString: workerDatabaseUrl() });
    await plain.connect();
    try {
      const alone = (await plain.query(both)) as unknown as { rows: unknown[] }[];
      expect(answers.many.map((r) => r.rows)).toEqual(alone.map((r) => r.rows));
    } finally {
      await plain.end();
    }
  });

  it('fails the transaction at an error in the first query, and gives its connection back', async () => {
    // More failures than the pool has connections: a connection kept by one of them would leave none.
    for (let i = 0; i < 12; i++) {
      await expect(
        database.db.transaction(async (tx) => {
          await runCommands(tx, "set local statement_timeout = 'soon'");
          return queryRows(tx, txid);
        }),
      ).rejects.toMatchObject({ cause: { code: '22023' } });
    }
    const [row] = await database.db.transaction((tx) => queryRows<{ one: number }>(tx, txid));
    expect(row.one).toBe(1);
  });

  /** A read as the routes run one (read-scope.ts): read-only, its COMMIT held back. */
  const read = () =>
    inReadScope(
      database,
      allTenants,
      async (tx) => (await queryRows<{ began: string; one: number }>(tx, sql`select now()::text as began, ${1}::int as one`))[0],
    );

  /** Sessions of this database left in a transaction, asked on a connection of its own (not the pool's, which would send what it holds back first). */
  const idleInTransaction = async () => {
    const plain = new pg.Client({ connectionString: workerDatabaseUrl() });
    await plain.connect();
    try {
      const { rows } = await plain.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction'",
      );
      return rows[0].n;
    } finally {
      await plain.end();
    }
  };

  it("sends a read's COMMIT with the connection's next BEGIN, each read in a transaction of its own", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20)); // what earlier tests held back is sent
    sent.length = 0;
    // One after the other: the pool hands the last released connection out again.
    const first = await read();
    await new Promise((resolve) => setImmediate(resolve));
    const second = await read();
    const begins = sent.filter((text) => /^(commit;)?begin;/.test(text));
    expect(begins).toHaveLength(2);
    expect(begins[0]).toMatch(/^begin;set local role/);
    expect(begins[1]).toMatch(/^commit;begin;set local role/);
    // A new transaction: its start time is its own (the first's COMMIT was not lost).
    expect(second.began).not.toBe(first.began);
    expect(first.one).toBe(1);
  });

  it("sends a read's COMMIT alone when nothing follows, so no connection stays in a transaction", async () => {
    sent.length = 0;
    await read();
    expect(sent.at(-1)).not.toBe('commit');
    await vi.waitFor(() => expect(sent.at(-1)).toBe('commit'), { timeout: 5_000, interval: 2 });
    await vi.waitFor(async () => expect(await idleInTransaction()).toBe(0), { timeout: 5_000, interval: 10 });
  });

  it('still waits for the COMMIT of a transaction that wrote', async () => {
    sent.length = 0;
    await database.db.transaction(async (tx) => {
      await runCommands(tx, "set local app.tenant_id = '7'");
      await tx.execute(sql`create temporary table if not exists written_here (n int)`);
    });
    expect(sent.at(-1)).toBe('commit');
    expect(await idleInTransaction()).toBe(0);
  });

  it('rolls a failed read back at once', async () => {
    sent.length = 0;
    await expect(inReadScope(database, allTenants, (tx) => queryRows(tx, sql`select 1 / ${0}::int`))).rejects.toMatchObject({
      code: '22012',
    });
    expect(sent.at(-1)).toBe('rollback');
    expect(await idleInTransaction()).toBe(0);
  });

  it('refuses a write in a read, so its COMMIT has nothing to keep', async () => {
    await expect(
      inReadScope(database, allTenants, (tx) => tx.execute(sql`create temporary table not_in_a_read (n int)`)),
    ).rejects.toMatchObject({ code: '25006' });
  });

  /** A prepared read (as the lists run theirs) of values of several types, written back as literals when it goes with its commands. */
  const typed = sql`select ${'it\'s \\ a "quote"'}::text as words, ${sql.param([3, 1, 2])}::int[] as ids, ${sql.param(['a,b', 'c"d'])}::text[] as names,
                           ${12.5}::numeric as score, ${true}::boolean as flag, ${null}::int as nothing,
                           '2026-12-06T10:00:00Z'::timestamptz + (${2}::int * interval '1 hour') as at, json_build_object('n', ${7}::int) as doc`;
  const typedRead = () => inReadScope(database, allTenants, (tx) => queryRows<Record<string, unknown>>(tx, typed));

  it('sends a read with its commands as one query once its connection has prepared the statement, answered alike', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    sent.length = 0;
    // One after the other: the pool hands the last released connection out again, which has prepared it after the first.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await typedRead());
    const whole = sent.filter((text) => /^(commit;)?begin;set local role .*;execute vigil_[0-9a-f]+\(/.test(text));
    expect(whole.length).toBeGreaterThanOrEqual(1);
    expect(whole[0].match(/;execute vigil_[0-9a-f]+(\(.*\))$/)?.[1]).toBe(
      `('it''s \\ a "quote"','{3,1,2}','{"a,b","c\\"d"}','12.5',true,NULL,'2','7')`,
    );
    // The first read's statement went on its own (extended protocol, values bound), the others' did not.
    expect(sent.filter((text) => text.startsWith('select'))).toHaveLength(3 - whole.length);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toEqual([
      {
        words: 'it\'s \\ a "quote"',
        ids: [3, 1, 2],
        names: ['a,b', 'c"d'],
        score: '12.5',
        flag: true,
        nothing: null,
        at: new Date('2026-12-06T12:00:00Z'),
        doc: { n: 7 },
      },
    ]);
  });

  it('fails a read whose commands fail with their error, at its statement, and gives the connection back', async () => {
    await typedRead(); // prepared on the connection handed out next
    for (let i = 0; i < 12; i++) {
      await expect(
        database.readDb.transaction(async (tx) => {
          await runCommands(tx, "set transaction read only; set local statement_timeout = 'soon'");
          return queryRows(preparedExecutor(database.prepared, tx), typed);
        }),
      ).rejects.toMatchObject({ code: '22023' });
    }
    expect(await typedRead()).toHaveLength(1);
    // The last read's COMMIT goes after COMMIT_FLUSH_MS; none of the failed reads left a transaction open.
    await vi.waitFor(async () => expect(await idleInTransaction()).toBe(0), { timeout: 5_000, interval: 10 });
  });

  it('sends nothing for a read that runs no statement', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    sent.length = 0;
    expect(await inReadScope(database, allTenants, () => Promise.resolve('nothing'))).toBe('nothing');
    expect(sent).toEqual([]);
  });
});

/**
 * What a held-back boundary does when it cannot be sent (a lost connection), on a client that
 * fails it: the call behind it fails with the error, never waits for good.
 */
describe('a held-back boundary that fails', () => {
  function failingClient(failing: string) {
    const sent: string[] = [];
    const client = {
      query(config: unknown, values?: unknown, callback?: unknown) {
        const text = typeof config === 'string' ? config : (config as { text: string }).text;
        sent.push(text);
        const done = typeof values === 'function' ? values : callback;
        const err = text === failing ? new Error('Connection terminated unexpectedly') : undefined;
        if (typeof done !== 'function') return err ? Promise.reject(err) : Promise.resolve({ rows: [] });
        queueMicrotask(() => (done as (e?: Error, r?: unknown) => void)(err, err ? undefined : { rows: [] }));
        return undefined;
      },
    };
    deferBoundaries(client as unknown as pg.PoolClient);
    return { client, sent };
  }

  /** A read's transaction on `client` running `statement`, its COMMIT held back. */
  async function readOn(client: { query: (...a: unknown[]) => unknown }, statement: object = { text: 'select 1' }) {
    await client.query({ text: 'begin' });
    await client.query({ text: 'set local role r; set transaction read only' });
    await client.query(statement);
    await client.query({ text: 'commit' });
  }

  it("fails a call with a callback, as the pool's own query makes, through that callback", async () => {
    const { client, sent } = failingClient('commit');
    await readOn(client);
    const err = await new Promise((resolve) => {
      void client.query('select 1', [], (e: unknown) => resolve(e));
    });
    expect(err).toMatchObject({ message: 'Connection terminated unexpectedly' });
    expect(sent).toEqual(['begin;set local role r; set transaction read only', 'select 1', 'commit']);
  });

  it("writes a read's prepared statement with its commands as EXECUTE, but not one that asks for rows as arrays", async () => {
    const { client, sent } = failingClient('none');
    const named = { name: 'vigil_0123abcd', text: 'select $1::text as a, $2::int[] as b', values: ["it's", [1, 2]] };
    // The connection's first run of the statement goes as it is (prepared by it), after the held commands.
    await readOn(client, named);
    expect(sent.slice(-2)).toEqual(['begin;set local role r; set transaction read only', named.text]);
    await readOn(client, named);
    expect(sent.at(-1)).toBe(`commit;begin;set local role r; set transaction read only;execute vigil_0123abcd('it''s','{1,2}')`);
    await readOn(client, { ...named, rowMode: 'array' });
    expect(sent.slice(-2)).toEqual(['commit;begin;set local role r; set transaction read only', named.text]);
  });

  it('fails a call without one through its promise', async () => {
    const { client, sent } = failingClient('commit');
    await readOn(client);
    await expect(client.query({ text: 'select $1::int', values: [1] }, [1])).rejects.toThrow('Connection terminated unexpectedly');
    expect(sent.at(-1)).toBe('commit');
  });
});
