import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDatabase } from '../../test/database.ts';
import { queryRows, type Database } from './client.ts';
import { inReadScope } from './read-scope.ts';
import { allTenants, inScope, tenantScope } from './scope.ts';
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

  it('keeps each read to its own scope, however reads of other scopes and failures come between, and leaves nothing of its settings to what runs after it', async () => {
    const settings = sql`select coalesce(current_setting('app.tenant_id', true), '') as tenant, coalesce(current_setting('app.all_tenants', true), '') as "all",
      current_setting('transaction_read_only') as "readOnly", current_user = ${APP_ROLE} as "appRole", current_setting('plan_cache_mode') as "planMode"`;
    type Settings = { tenant: string; all: string; readOnly: string; appRole: boolean; planMode: string };
    const readIn = (scope: Parameters<typeof inReadScope>[1]) =>
      inReadScope(database, scope, async (reader) => (await queryRows<Settings>(reader, settings))[0]);
    const outside = async () => (await queryRows<Settings>(database.db, settings))[0];
    const defaults = { tenant: '', all: '', readOnly: 'off', appRole: false, planMode: 'auto' };
    const read = { readOnly: 'on', appRole: true, planMode: 'force_generic_plan' };

    // Reads of one tenant after another (the embedded database keeps a read's settings on its one session while the next read has the same).
    expect(await readIn(tenantScope(7))).toEqual({ tenant: '7', all: 'off', ...read });
    expect(await readIn(tenantScope(7))).toEqual({ tenant: '7', all: 'off', ...read });
    expect(await readIn(tenantScope(8))).toEqual({ tenant: '8', all: 'off', ...read });
    expect(await readIn(allTenants)).toEqual({ tenant: '', all: 'on', ...read });
    // A statement outside any transaction, and a transaction, run as the owner, read-write, with no tenant.
    expect(await outside()).toEqual(defaults);
    await readIn(tenantScope(7));
    const inTransaction = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into ${sql.raw(probe)} values (3)`);
      return (await queryRows<Settings>(tx, settings))[0];
    });
    expect(inTransaction).toEqual(defaults);
    // A read that failed leaves neither its scope to the next read nor its settings to what follows.
    await readIn(tenantScope(7));
    const failed = await inReadScope(database, tenantScope(9), (reader) => reader.execute(sql`select 1 / (${0}::int) as n`)).then(
      () => 'answered',
      (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code,
    );
    expect(failed).toBe('22012');
    expect(await outside()).toEqual(defaults);
    // One with fewer settings (a read transaction without the plan rule), then a failed one with more: none of them is left.
    const planless = await inScope(database.readDb, tenantScope(9), async (tx) => (await queryRows<Settings>(tx, settings))[0]);
    expect(planless).toMatchObject({ tenant: '9', all: 'off', appRole: true, planMode: 'auto' });
    await inReadScope(database, tenantScope(9), (reader) => reader.execute(sql`select 1 / (${0}::int) as n`)).catch(() => undefined);
    expect(await outside()).toEqual(defaults);
    expect(await readIn(tenantScope(8))).toEqual({ tenant: '8', all: 'off', ...read });
  });
});
