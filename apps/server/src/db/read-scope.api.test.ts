import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDatabase } from '../../test/database.ts';
import { queryRows, type Database } from './client.ts';
import { inReadScope } from './read-scope.ts';
import { tenantScope } from './scope.ts';
import { APP_ROLE } from './security.ts';

let database: Database;
const probe = `read_scope_probe_${process.pid}`;
beforeAll(async () => {
  database = await sharedDatabase();
  await database.exec(`create table ${probe} (n int); grant select, insert on ${probe} to ${APP_ROLE}`);
});
afterAll(() => database.exec(`drop table ${probe}`));

const count = async (executor: Parameters<typeof queryRows>[0]) =>
  (await queryRows<{ n: number }>(executor, sql`select count(*)::int as n from ${sql.raw(probe)}`))[0].n;

describe("a read's transaction (readTx)", () => {
  it("runs every statement read-only in the read's scope, and refuses a write (SQLSTATE 25006) without keeping it", async () => {
    const settings = await inReadScope(database, tenantScope(7), async (reader) => {
      const each = [];
      for (let i = 0; i < 3; i++)
        each.push(
          (
            await queryRows<{ tenant: string; readOnly: string; role: string }>(
              reader,
              sql`select current_setting('app.tenant_id') as tenant, current_setting('transaction_read_only') as "readOnly", current_user as role`,
            )
          )[0],
        );
      return each;
    });
    expect(settings).toEqual(Array(3).fill({ tenant: '7', readOnly: 'on', role: APP_ROLE }));

    const before = await count(database.db);
    const refused = await inReadScope(database, tenantScope(7), async (reader) => {
      await count(reader);
      return reader.execute(sql`insert into ${sql.raw(probe)} values (1)`).then(
        () => 'written',
        (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code,
      );
    });
    expect(refused).toBe('25006');
    expect(await count(database.db)).toBe(before);
  });

  it('answers a failed statement with its SQLSTATE and leaves no transaction open behind it', async () => {
    const failed = (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code;
    const codeOf = (query: ReturnType<typeof sql>) =>
      inReadScope(database, tenantScope(7), (reader) => reader.execute(query)).then(() => 'answered', failed);
    // Fails when it runs (division by zero); fails when it is described (no such column).
    expect(await codeOf(sql`select 1 / (${0}::int) as n`)).toBe('22012');
    expect(await codeOf(sql`select no_such_column from ${sql.raw(probe)} where n = ${1}`)).toBe('42703');
    // Nothing was left holding the session: a read answers, and a write transaction commits and is seen.
    const before = await inReadScope(database, tenantScope(7), count);
    await database.db.transaction((tx) => tx.execute(sql`insert into ${sql.raw(probe)} values (2)`));
    expect(await count(database.db)).toBe(before + 1);
  });

  it('sees at each statement what was committed before it, and lets a write commit between its statements', async () => {
    const seen = await inReadScope(database, tenantScope(7), async (reader) => {
      const first = await count(reader);
      // On PGlite's one session a read used to hold the database from its first statement to its
      // end: this write then waited for the read, which waited for the write (the test timed out).
      await database.db.execute(sql`insert into ${sql.raw(probe)} values (1)`);
      return { first, second: await count(reader) };
    });
    expect(seen.second).toBe(seen.first + 1);
  }, 10_000);
});
