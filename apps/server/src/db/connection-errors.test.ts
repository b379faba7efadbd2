import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './connection-errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** drizzle's wrapper: the driver's error as its cause, the statement and its values in the message. */
const wrapped = (cause: unknown, params = '') => Object.assign(new Error(`Failed query: select 1\nparams: ${params}`), { cause });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['admin shutdown (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['cannot connect now (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a client not queryable any more', new Error('Client has encountered a connection error and is not queryable')],
    ['a multi-address connect', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '')],
    ['any of them wrapped by drizzle', wrapped(withCode('read ECONNRESET', 'ECONNRESET'))],
  ])('maps %s to unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a data exception', withCode('invalid input syntax', '22P02')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    [
      'a failed query quoting a value that looks like a lost connection',
      wrapped(withCode('duplicate key', '23505'), 'Connection terminated'),
    ],
    ['nothing', undefined],
  ])('leaves %s alone', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
