import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, queryRows, type Database } from './client.ts';
import { runCommands } from './commands.ts';
import { isDatabaseUnavailable } from './connection-errors.ts';
import { PgliteRemote } from './pglite-remote.ts';
import { preparedExecutor } from './prepared.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

describe('PGlite units and the event loop', () => {
  it('admits several transactions at once, each running on the database only after the one before commits', async () => {
    await database.exec('create table admitted_probe (n int)');
    const events: string[] = [];
    let firstHolds: () => void = () => {};
    const held = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = database.db.transaction(async (tx) => {
      events.push('first starts');
      await tx.execute(sql`insert into admitted_probe values (1)`);
      // Holds PGlite's transaction until the others have been admitted and sent their statements (one
      // admitted at a time would never start them: then it ends after a second).
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      events.push('first ends');
    });
    const count = async (name: string, release?: () => void) =>
      database.db.transaction(async (tx) => {
        events.push(`${name} starts`);
        if (release) setImmediate(release);
        // Sent while the first is open: it waits on the database's thread, then sees the first's row.
        return (await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from admitted_probe`))[0].n;
      });
    const [, second, third] = await Promise.all([first, count('second'), count('third', firstHolds)]);
    expect([second, third]).toEqual([1, 1]);
    expect(events).toEqual(['first starts', 'second starts', 'third starts', 'first ends']);
  });

  it('admits two urgent transactions at once, a third only once one of them has ended', async () => {
    const events: string[] = [];
    let firstHolds: () => void = () => {};
    const held = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = database.urgentDb.transaction(async (tx) => {
      events.push('first starts');
      await tx.execute(sql`select 1`);
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      events.push('first ends');
    });
    const second = database.urgentDb.transaction(async (tx) => {
      events.push('second starts');
      setImmediate(firstHolds);
      await tx.execute(sql`select 1`);
    });
    const third = database.urgentDb.transaction(() => Promise.resolve(events.push('third starts')));
    await Promise.all([first, second, third]);
    expect(events).toEqual(['first starts', 'second starts', 'first ends', 'third starts']);
  });

  it('runs an urgent transaction before the reads already waiting on the database for the session', async () => {
    // A database of its own: the gate of the shared one may still hold reads back after the urgent units above.
    const own = await openDatabase({ dataDir: 'memory://' });
    onTestFinished(() => own.close());
    let firstHolds: () => void = () => {};
    const held = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = own.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    });
    // Microseconds since the epoch, as text (a float8 of seconds keeps only about a millisecond here).
    const ranAt = (rows: { at: string }[]) => BigInt(rows[0].at);
    // Reads admitted while the first holds the session: they wait for it on the database's thread.
    const reads = Array.from({ length: 3 }, () =>
      own.readDb.transaction(async (tx) =>
        ranAt(await queryRows<{ at: string }>(tx, sql`select (extract(epoch from clock_timestamp()) * 1000000)::bigint::text as at`)),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const urgent = own.urgentDb.transaction(async (tx) => {
      setTimeout(firstHolds, 20);
      return ranAt(await queryRows<{ at: string }>(tx, sql`select (extract(epoch from clock_timestamp()) * 1000000)::bigint::text as at`));
    });
    const [, urgentAt, ...readsAt] = await Promise.all([first, urgent, ...reads]);
    // Arrival order would run the reads first (PGlite's own lock is first come, first served).
    for (const readAt of readsAt) expect(urgentAt < readAt).toBe(true);
  });

  it('answers each of many calls asked in one turn with its own result', async () => {
    const values = Array.from({ length: 40 }, (_, i) => i * 7);
    const answers = await Promise.all(
      values.map((v, i) =>
        i % 2
          ? database.readDb.transaction(async (tx) => (await queryRows<{ v: number }>(tx, sql`select ${v}::int as v`))[0].v)
          : database.db.transaction(async (tx) => (await queryRows<{ v: number }>(tx, sql`select ${v}::int + 0 as v`))[0].v),
      ),
    );
    expect(answers).toEqual(values);
  });

  it('lets a pending connection be accepted between units', async () => {
    const net = await import('node:net');
    const accepted: number[] = [];
    const server = net.createServer((s) => {
      accepted.push(performance.now());
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const finished: number[] = [];
    // 20 units of ~20 ms of synchronous work each, asked from callbacks of one turn, while 5 clients connect.
    const unit = () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        const end = performance.now() + 20;
        while (performance.now() < end);
        finished.push(performance.now());
      });
    const work = Array.from(
      { length: 20 },
      () =>
        new Promise<void>((resolve, reject) =>
          setImmediate(() => {
            unit().then(resolve, reject);
          }),
        ),
    );
    const clients = Array.from({ length: 5 }, () => net.connect(port, '127.0.0.1').on('error', () => {}));
    await Promise.all(work);
    await new Promise((r) => setTimeout(r, 50));
    clients.forEach((c) => c.destroy());
    server.close();
    // Every client was accepted long before the 20 units (>= 400 ms) were over.
    expect(accepted).toHaveLength(5);
    expect(Math.max(...accepted)).toBeLessThan(finished[10]);
  });
});

describe('PGlite on its own thread', () => {
  it("brings a statement's error back with PGlite's fields (SQLSTATE, constraint, detail), drizzle's wrapper around it", async () => {
    await database.exec('create temporary table remote_unique (k int primary key)');
    await database.db.execute(sql`insert into remote_unique values (1)`);
    const failure = await database.db.execute(sql`insert into remote_unique values (1)`).then(
      () => undefined,
      (err: unknown) => err as { cause?: { code?: string; constraint?: string; detail?: string; message?: string } },
    );
    expect(failure?.cause).toMatchObject({ code: '23505', constraint: 'remote_unique_pkey', detail: 'Key (k)=(1) already exists.' });
    expect(failure?.cause?.message).toMatch(/duplicate key value/);
  });

  it('rolls a transaction back when its callback throws, and commits it otherwise', async () => {
    await database.exec('create temporary table remote_tx (k int)');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into remote_tx values (1)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into remote_tx values (2)`);
    });
    const result = (await database.db.execute(sql`select k from remote_tx`)) as { rows: { k: number }[] };
    expect(result.rows).toEqual([{ k: 2 }]);
  });

  it('keeps the values PGlite gives (dates as text for drizzle, numbers, booleans, json, bytea)', async () => {
    const result = (await database.db.execute(
      sql`select timestamptz '2026-01-02 03:04:05+00' as at, 42::int as n, true as b, '{"a":[1]}'::jsonb as j, '\\x0102'::bytea as bytes`,
    )) as { rows: Record<string, unknown>[] };
    expect(result.rows[0]).toEqual({ at: '2026-01-02 03:04:05+00', n: 42, b: true, j: { a: [1] }, bytes: new Uint8Array([1, 2]) });
  });

  it('fails every call after close with an error the server answers 503 (SQLSTATE 57P02)', async () => {
    const other = await openDatabase({ dataDir: 'memory://' });
    await other.close();
    const failure = await other.db.execute(sql`select 1`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ cause: { code: '57P02' } });
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });

  it('answers every call of a transaction begun while the database closes (none is left waiting)', async () => {
    const other = await openDatabase({ dataDir: 'memory://' });
    const closing = other.close();
    const outcomes = await Promise.allSettled([
      other.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      }),
      other.db.transaction(async () => {}),
      other.db.execute(sql`select 1`),
    ]);
    await closing;
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});

/** The rejection of `work`, or undefined when it resolved. */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (err: unknown) => err as { code?: string; cause?: { code?: string }; message?: string },
  );
const codeOf = (err: { code?: string; cause?: { code?: string } } | undefined) => err?.cause?.code ?? err?.code;

describe("a transaction's exchanges with PGlite's thread", () => {
  it('runs the queued commands before the first statement, in the same transaction, and only there', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await runCommands(tx, "set local app.tenant_id = '7'; set local app.all_tenants = 'off'");
      const first = await queryRows<{ tenant: string }>(tx, sql`select current_setting('app.tenant_id') as tenant`);
      await runCommands(tx, "set local app.tenant_id = '8'");
      const second = await queryRows<{ tenant: string; n: number }>(
        tx,
        sql`select current_setting('app.tenant_id') as tenant, ${5}::int as n`,
      );
      return [first[0], second[0]];
    });
    expect(seen).toEqual([{ tenant: '7' }, { tenant: '8', n: 5 }]);
    const after = await queryRows<{ tenant: string | null }>(database.db, sql`select current_setting('app.tenant_id', true) as tenant`);
    expect(after[0].tenant ?? '').toBe('');
  });

  it("fails the statement a failed command went with, with the command's SQLSTATE, and keeps none of the transaction", async () => {
    await database.exec('create temporary table queued_fail (k int)');
    const failure = await failureOf(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into queued_fail values (1)`);
        await runCommands(tx, 'set local role no_such_role');
        await tx.execute(sql`insert into queued_fail values (2)`);
      }),
    );
    expect(codeOf(failure)).toBe('22023');
    // Queued with nothing after them: the COMMIT carries them and fails with their code.
    const atCommit = await failureOf(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into queued_fail values (3)`);
        await runCommands(tx, 'set local no_such_setting = 1');
      }),
    );
    expect(codeOf(atCommit)).toBe('42704');
    const { rows } = (await database.db.execute(sql`select k from queued_fail`)) as { rows: unknown[] };
    expect(rows).toEqual([]);
  });

  it('rolls a transaction back when a statement in the middle violates a constraint, the error carrying its SQLSTATE', async () => {
    await database.exec('create temporary table mid_unique (k int primary key)');
    const failure = await failureOf(
      database.db.transaction(async (tx) => {
        await runCommands(tx, "set local app.tenant_id = '1'");
        await tx.execute(sql`insert into mid_unique values (${1})`);
        await tx.execute(sql`insert into mid_unique values (${2})`);
        await tx.execute(sql`insert into mid_unique values (${1})`);
        await tx.execute(sql`insert into mid_unique values (${3})`);
      }),
    );
    expect(failure?.cause).toMatchObject({ code: '23505', constraint: 'mid_unique_pkey' });
    const { rows } = (await database.db.execute(sql`select k from mid_unique`)) as { rows: unknown[] };
    expect(rows).toEqual([]);
    // The session is usable again, outside and inside a transaction.
    await database.db.transaction((tx) => tx.execute(sql`insert into mid_unique values (${4})`));
    expect(((await database.db.execute(sql`select k from mid_unique`)) as { rows: unknown[] }).rows).toEqual([{ k: 4 }]);
  });

  it("refuses to commit a transaction whose statement failed, as PGlite's transaction does (SQLSTATE 25P02)", async () => {
    await database.exec('create temporary table aborted_commit (k int primary key)');
    const failure = await failureOf(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into aborted_commit values (1)`);
        await tx.execute(sql`insert into aborted_commit values (1)`).catch(() => undefined);
      }),
    );
    expect(codeOf(failure)).toBe('25P02');
    expect(((await database.db.execute(sql`select k from aborted_commit`)) as { rows: unknown[] }).rows).toEqual([]);
  });

  it("answers every column type the app uses as PGlite's own query path does, with and without parameters, prepared too", async () => {
    const statement = (n: number) =>
      sql`select ${n}::int as i, ${'x'}::text as t, 9007199254740993::bigint as big, 12.50::numeric as num, 1.5::float8 as f,
        true as b, null::text as nothing, timestamptz '2026-01-02 03:04:05.678+00' as at, date '2026-01-02' as day,
        interval '1 day 02:00' as span, '{"a":[1,"two",null]}'::jsonb as jb, '{"k":1}'::json as js, array['a','b,c']::text[] as texts,
        array[1,2]::int[] as ints, '\\x0102'::bytea as bytes, '0b7e8e2a-5f6c-4c53-9d3e-111111111111'::uuid as id,
        '10.0.0.1'::inet as addr, 'pg_class'::regclass::oid as o`;
    const plain = (await database.db.execute(statement(1))) as { rows: unknown[]; fields: unknown[] };
    const inside = await database.db.transaction(async (tx) => {
      await runCommands(tx, "set local app.tenant_id = '1'");
      // The first statement goes with BEGIN and the commands; the second alone.
      const first = (await tx.execute(statement(1))) as { rows: unknown[]; fields: unknown[] };
      const second = (await tx.execute(statement(1))) as { rows: unknown[]; fields: unknown[] };
      const selected = await tx
        .select({ n: sql<number>`${1}::int`, at: sql<string>`timestamptz '2026-01-02 03:04:05+00'` })
        .from(sql`(select 1) as one`);
      return { first, second, selected };
    });
    expect(inside.first.rows).toEqual(plain.rows);
    expect(inside.first.fields).toEqual(plain.fields);
    expect(inside.second.rows).toEqual(plain.rows);
    expect(inside.selected).toEqual(
      await database.db
        .select({ n: sql<number>`${1}::int`, at: sql<string>`timestamptz '2026-01-02 03:04:05+00'` })
        .from(sql`(select 1) as one`),
    );
    // Prepared (EXECUTE with the values as literals): PGlite's parsers, as its own query gives them.
    const prepared = await database.db.transaction((tx) => queryRows(preparedExecutor(database.prepared, tx), statement(1)));
    const rawPlain = await database.db.transaction(async (tx) => {
      const raw = (tx as unknown as { session: { client: { query(text: string): Promise<{ rows: unknown[] }> } } }).session.client;
      return (
        await raw.query(
          `execute ${(await queryRows<{ name: string }>(tx, sql`select name from pg_prepared_statements where name like 'vigil_%' order by prepare_time desc limit 1`))[0].name}(1, 'x')`,
        )
      ).rows;
    });
    expect(prepared).toEqual(rawPlain);
    expect(prepared[0]).toMatchObject({
      i: 1,
      t: 'x',
      big: 9007199254740993n,
      b: true,
      nothing: null,
      jb: { a: [1, 'two', null] },
      texts: ['a', 'b,c'],
    });
  });

  it('ends a transaction by its own rollback, queued commands dropped, and keeps none of it', async () => {
    const remote = await PgliteRemote.open('memory://');
    await remote.exec('create table own_rollback (k int)');
    const answer = await remote.transaction(async (tx) => {
      await tx.query('insert into own_rollback values (1)');
      tx.defer('set local no_such_setting = 1');
      await tx.rollback();
      return 'rolled back';
    });
    // Never begun: nothing to roll back, and the queued (failing) command is not run.
    const never = await remote.transaction(async (tx) => {
      tx.defer('set local no_such_setting = 1');
      await tx.rollback();
      return tx.closed;
    });
    expect([answer, never]).toEqual(['rolled back', true]);
    expect((await remote.query('select count(*)::int as n from own_rollback')).rows).toEqual([{ n: 0 }]);
    await remote.close();
  });

  it('runs a statement sent outside any transaction only after the open one has ended, never inside it', async () => {
    const remote = await PgliteRemote.open('memory://');
    onTestFinished(() => remote.close());
    await remote.exec('create table outside_probe (n int)');
    const events: string[] = [];
    let outside: Promise<number> | undefined;
    await remote.transaction(async (tx) => {
      await tx.query('insert into outside_probe values (1)');
      outside = remote.query<{ n: number }>('select count(*)::int as n from outside_probe').then((r) => {
        events.push('outside answered');
        return r.rows[0].n;
      });
      // Sent after it, answered in order: the statement outside has reached the database's thread by now.
      await tx.query('select 1');
      events.push('transaction ends');
      await tx.rollback();
    });
    // It waited for the session's lock: it neither ran inside the open transaction (it would count the
    // row inserted there) nor before it ended.
    expect(await outside).toBe(0);
    expect(events).toEqual(['transaction ends', 'outside answered']);
  });

  it('fails the statements of a transaction whose thread died with SQLSTATE 57P02 (answered 503), and every later call', async () => {
    const remote = await PgliteRemote.open('memory://');
    const failure = await failureOf(
      remote.transaction(async (tx) => {
        await tx.query('select 1');
        tx.defer("set local app.tenant_id = '1'");
        // The thread ends as a crash would end it.
        await (remote as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
        await tx.query('select 2');
      }),
    );
    expect(codeOf(failure)).toBe('57P02');
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(codeOf(await failureOf(remote.query('select 1')))).toBe('57P02');
    await remote.close();
  });
});
