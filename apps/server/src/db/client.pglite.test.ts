import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';
import { isDatabaseUnavailable } from './connection-errors.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

/** Counts turns of the event loop: one increment per check phase while it runs. */
function turnCounter() {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      running = false;
    },
  };
}

describe('PGlite units and the event loop', () => {
  it('runs each unit on a turn of its own, even when several are asked for in the same turn', async () => {
    const turns = turnCounter();
    const started: number[] = [];
    // Three requests' database work, each asked from its own callback of one check phase (as shared
    // reads start their rounds): a PGlite unit never yields, so back to back they would hold the loop.
    const units = await Promise.all(
      [1, 2, 3].map(
        (n) =>
          new Promise<number>((resolve, reject) =>
            setImmediate(() => {
              database.db
                .transaction(async (tx) => {
                  started.push(turns.now());
                  return (await tx.execute(sql`select ${n}::int as n`)) as { rows: { n: number }[] };
                })
                .then((r) => resolve(r.rows[0].n), reject);
            }),
          ),
      ),
    );
    turns.stop();
    expect(units).toEqual([1, 2, 3]);
    expect(new Set(started).size).toBe(3);
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
