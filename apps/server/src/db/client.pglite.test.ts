import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';

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
