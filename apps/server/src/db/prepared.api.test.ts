import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sharedDatabase } from '../../test/database.ts';
import type { Database } from './client.ts';
import { pgliteRunner, preparedExecutor } from './prepared.ts';
import { literal } from './sql-literal.ts';
import { inReadScope } from './read-scope.ts';
import { openDatabase, queryRows } from './client.ts';
import { allTenants } from './scope.ts';
import { APP_ROLE } from './security.ts';

let database: Database;
beforeAll(async () => {
  database = await sharedDatabase();
});

const awkward = [
  'plain',
  '',
  "it's",
  'back\\slash',
  'a "quoted" word',
  '{braces},commas',
  'NULL',
  'ünïcødé ✓',
  ' spaced ',
  "'; drop table devices; --",
];

describe('prepared statements', () => {
  it('runs a statement with the same answers as unprepared, whatever the values hold', async () => {
    const query = (texts: string[], numbers: number[], at: string) =>
      sql`select t, n, ${at}::timestamptz as at from unnest(${sql.param(texts)}::text[], ${sql.param(numbers)}::int[]) as u(t, n)`;
    const numbers = awkward.map((_, i) => i - 3);
    const at = '2026-11-22T06:00:00.000Z';
    const plain = await queryRows<{ t: string; n: number }>(database.db, query(awkward, numbers, at));
    const twice = await database.db.transaction(async (tx) => {
      const prepared = preparedExecutor(database.prepared, tx);
      // The second run reuses the statement prepared by the first.
      await queryRows(prepared, query(['x'], [1], at));
      return queryRows<{ t: string; n: number; at: Date | string }>(prepared, query(awkward, numbers, at));
    });
    expect(twice.map((r) => [r.t, Number(r.n)])).toEqual(plain.map((r) => [r.t, Number(r.n)]));
    expect(twice.map((r) => r.t)).toEqual(awkward);
    expect(new Date(twice[0].at).toISOString()).toBe(at);
  });

  it('keeps a statement prepared after its transaction rolled back', async () => {
    const query = (n: number) => sql`select ${n}::int + 1 as next`;
    await expect(
      database.db.transaction(async (tx) => {
        await queryRows(preparedExecutor(database.prepared, tx), query(1));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const rows = await database.db.transaction((tx) => queryRows<{ next: number }>(preparedExecutor(database.prepared, tx), query(41)));
    expect(Number(rows[0].next)).toBe(42);
  });

  it('plans a list read generically, for its own transaction only', async () => {
    // A SELECT (PREPARE takes no SHOW).
    const mode = (executor: Parameters<typeof queryRows>[0]) =>
      queryRows<{ plan_cache_mode: string }>(executor, sql`select current_setting('plan_cache_mode') as plan_cache_mode`);
    const inside = await inReadScope(database, allTenants, async (reader) => {
      // The same statement text with other values: each answer is its own values' answer.
      const answers = [];
      for (let n = 0; n < 8; n++)
        answers.push(Number((await queryRows<{ next: number }>(reader, sql`select ${n}::int + 1 as next`))[0].next));
      // The scope's settings hold too (sent with the plan rule on PostgreSQL).
      const [scoped] = await queryRows<{ all_tenants: string; role: string }>(
        reader,
        sql`select current_setting('app.all_tenants') as all_tenants, current_user as role`,
      );
      return { reader, answers, mode: (await mode(reader))[0].plan_cache_mode, scoped };
    });
    expect(inside.answers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(inside.mode).toBe('force_generic_plan');
    expect(inside.scoped).toEqual({ all_tenants: 'on', role: APP_ROLE });
    // Gone with the transaction: other work on the same connections plans as PostgreSQL chooses.
    const after = await Promise.all(
      Array.from({ length: 10 }, () => database.db.transaction(async (tx) => (await mode(tx))[0].plan_cache_mode)),
    );
    expect(after).toEqual(Array(10).fill('auto'));
  });

  it('keeps at most its cap of statements prepared on PGlite, the least recently used deallocated first', async () => {
    const runner = pgliteRunner(3);
    // PGlite's runner on an embedded database of its own, in the PostgreSQL project too.
    const embedded = await openDatabase({ dataDir: 'memory://' });
    onTestFinished(() => embedded.close());
    const seen = await embedded.db.transaction(async (tx) => {
      const prepared = preparedExecutor(runner, tx);
      const add = async (k: number, n: number) =>
        Number((await queryRows<{ v: number }>(prepared, sql`select ${sql.raw(String(k))} + ${n}::int as v`))[0].v);
      const statements = async () =>
        (await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements where name like 'vigil_%'`)).map(
          (r) => r.statement,
        );
      const answers = [await add(1000, 1), await add(2000, 1), await add(3000, 1), await add(1000, 2)];
      // A fourth statement: 2000 is the least recently used now (1000 ran again after it).
      answers.push(await add(4000, 1));
      const kept = (await statements()).filter((t) => /select \d+000 \+/.test(t));
      // Deallocated statements are prepared again when asked.
      answers.push(await add(2000, 5));
      return { answers, kept };
    });
    expect(seen.answers).toEqual([1001, 2001, 3001, 1002, 4001, 2005]);
    expect(seen.kept.map((t) => /select (\d+)/.exec(t)![1]).sort()).toEqual(['1000', '3000', '4000']);
  });

  it('prepares a statement once when two admitted transactions both ask for it first (PGlite)', async () => {
    const runner = pgliteRunner();
    const embedded = await openDatabase({ dataDir: 'memory://' });
    onTestFinished(() => embedded.close());
    // Both transactions are admitted before either has run (client.ts admits several on PGlite): each
    // finds the statement unprepared from where it stands, and the session's thread prepares it once.
    const [a, b] = await Promise.all(
      [1, 2].map((n) =>
        embedded.db.transaction(async (tx) =>
          Number((await queryRows<{ v: number }>(preparedExecutor(runner, tx), sql`select 7000 + ${n}::int as v`))[0].v),
        ),
      ),
    );
    expect([a, b]).toEqual([7001, 7002]);
    const names = await queryRows<{ name: string }>(embedded.db, sql`select name from pg_prepared_statements where statement ~ '7000'`);
    expect(names).toHaveLength(1);
  });

  it('writes literals PostgreSQL reads back exactly', () => {
    expect(literal(["it's", 'a"b', 'c\\d'])).toBe(`'{"it''s","a\\"b","c\\\\d"}'`);
    expect(literal(42)).toBe(`'42'`);
    expect(literal("o'clock")).toBe(`'o''clock'`);
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal({})).toThrow();
    // As PostgreSQL refuses a bound value holding a NUL (SQLSTATE 22021: the error handler's 400).
    for (const nul of ['a\0b', ['ok', '\0']]) expect(() => literal(nul)).toThrow(expect.objectContaining({ code: '22021' }));
  });
});
