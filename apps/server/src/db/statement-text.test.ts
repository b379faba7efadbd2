import { sql, type SQL } from 'drizzle-orm';
import { integer, pgEnum, pgTable, PgDialect } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from './offline-periods.ts';
import { tenantScope } from './scope.ts';
import { containsPattern, tenantCondition } from './sql-fragments.ts';
import { allOf, pageEnd, pageOf, pageOrder } from './sql-list.ts';
import { statementOf } from './statement-text.ts';

const dialect = new PgDialect();
/** drizzle's text and values (its `typings`, all "none" for plain values, are used by neither driver). */
const drizzles = (query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params };
};
const ours = (query: SQL) => {
  const { sql: text, params } = statementOf(query);
  return { sql: text, params };
};

const things = pgTable('things', { id: integer('id').primaryKey(), tenantId: integer('tenant_id') });
const mood = pgEnum('mood', ['calm', 'cross']);

describe("a statement's text and values", () => {
  afterEach(() => vi.restoreAllMocks());

  it('are those drizzle writes for nested templates, values, raw text and joins', () => {
    const columns: Record<'name' | 'createdAt', SQL> = { name: sql`d.name_key`, createdAt: sql`d.created_at` };
    const conditions = [
      sql`d.removed_at is null`,
      tenantCondition(tenantScope(7), sql`d.tenant_id`),
      sql`d.status = ${0}`,
      sql`d.name ilike ${containsPattern("50%_o'k\\")}`,
      sql`(d.tenant_id, d.id) in (select op.tenant_id, op.device_id from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE})`,
    ];
    const end = pageEnd({ offset: 4_990, limit: 10 }, sql`(select n from kept)`, 5_000);
    const statements = [
      sql`select 1`,
      sql``,
      sql.raw('select now()'),
      sql.empty(),
      sql`select ${null}, ${true}, ${12.5}, ${'text'}, ${10n}, ${undefined} as nothing`,
      sql`select * from devices d where ${allOf(conditions)} ${pageOrder({ field: 'name', dir: 'DESC' }, columns, { column: sql`d.id`, dir: 'DESC' }, true)} ${end.limit}`,
      sql`select ${sql.join([sql`a`, sql`${1}`, sql`${2}`], sql`, `)} ${pageOf({ offset: 20, limit: 101 })}`,
      sql`select ${new Date('2026-12-06T13:00:00Z')}::timestamptz, ${{ a: 1 }}::jsonb`,
    ];
    const expected = statements.map(drizzles);
    const builder = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    expect(statements.map(ours)).toEqual(expected);
    expect(builder).not.toHaveBeenCalled();
  });

  it('numbers the values in the order they are written, however deep', () => {
    const query = sql`a ${1} ${sql`b ${2} ${sql`c ${3}`} ${4}`} ${5}`;
    expect(statementOf(query)).toEqual({ sql: 'a $1 b $2 c $3 $4 $5', params: [1, 2, 3, 4, 5] });
  });

  it("are drizzle's for what only its builder knows: tables, columns, names, arrays, encoders, enums, inlined values", () => {
    const statements = [
      sql`select ${things.id} from ${things} where ${things.tenantId} = ${3}`,
      sql`select ${sql.identifier('odd name')} from t`,
      sql`select 1 where x in ${[1, 2, 3]}`,
      sql`select ${sql.param('2026-12-06', { mapToDriverValue: (v: unknown) => `${String(v)}T00:00:00Z` })}`,
      sql`select ${sql.placeholder('p')}`,
      sql`select ${mood}`,
      sql`select ${sql`${'inline'}`.inlineParams()} where a = ${1}`,
      sql`select ${things.id.getSQL()}`,
    ];
    const expected = statements.map(drizzles);
    const builder = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    expect(statements.map(ours)).toEqual(expected);
    expect(builder).toHaveBeenCalledTimes(statements.length);
  });
});
