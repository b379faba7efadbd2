import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { limitOf, pageOf } from './sql-list.ts';

const dialect = new PgDialect();

describe('page limits', () => {
  it('writes page sizes up to 100 into the statement text, so a generic plan is made for that many rows', () => {
    expect(dialect.sqlToQuery(pageOf({ offset: 20, limit: 10 }))).toMatchObject({ sql: 'limit 10 offset $1', params: [20] });
    expect(dialect.sqlToQuery(limitOf({ reverse: true, offset: 0, limit: 100 }))).toMatchObject({
      sql: 'limit 100 offset $1',
      params: [0],
    });
  });

  it('binds larger pages, so callers cannot make a statement for every count up to the maximum', () => {
    expect(dialect.sqlToQuery(pageOf({ offset: 0, limit: 101 }))).toMatchObject({ sql: 'limit $1 offset $2', params: [101, 0] });
    expect(dialect.sqlToQuery(pageOf({ offset: 5, limit: 1000 }))).toMatchObject({ sql: 'limit $1 offset $2', params: [1000, 5] });
  });
});
