/**
 * Generated bad inputs for the bad-input sweep: path parameters, query strings and
 * JSON bodies that are wrong in type, range, size, encoding or shape. Kept apart
 * from the sweep so the corpus can grow without touching how it is sent.
 */

/** A deterministic PRNG (mulberry32): the same seed gives the same sample on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Path segment values; those starting with "%" are sent as typed (already percent-encoded or broken on purpose). */
export const BAD_PARAMS: readonly string[] = [
  '0', '-1', '-0', '00', '01', '+1', ' 1', '1 ', '1.0', '1.5', '-1.5', '1e3', '1e309', '0x1f', '0b1', '0o7',
  '2147483647', '2147483648', '4294967296', '9007199254740993', '99999999999999999999999', '-2147483649',
  'NaN', 'Infinity', '-Infinity', 'abc', 'null', 'undefined', 'true', '[]', '{}', '[1]',
  '%00', '%0a', '%20', '%25', '%2F', '%2e%2e', '%zz', '%', '%C0%AF', '%F0%9F%98%80', '..',
  '１２３', '١٢٣', '😀', 'ß', "1'--", '1;DROP TABLE users', '1 OR 1=1', '1%27%20OR%20%271%27%3D%271', '<script>',
  'a'.repeat(5000), '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
];

/**
 * The same id written in forms that are not its canonical decimal (each a segment, percent-encoded where
 * needed): a lenient parse would read most of them as the id itself, so each must answer 404.
 */
export const nonCanonicalIds = (id: number): string[] => [
  `0x${id.toString(16)}`, `0X${id.toString(16)}`, `0b${id.toString(2)}`, `0o${id.toString(8)}`, `+${id}`, `${id}e0`, `${id / 10}e1`, `0000${id}`, `0${id}`,
  `%20${id}`, `${id}%20`, `%09${id}`, `${id}.0`, `${id}.`, `${id}n`, `${id}_`, `-${id}`, '0', '-0', '00', '2147483648', '4294967296',
  '99999999999', '%EF%BC%91', '١',
];

const deepObject = (depth: number): unknown => (depth === 0 ? {} : { a: deepObject(depth - 1) });
const deepArray = (depth: number): unknown => (depth === 0 ? [] : [deepArray(depth - 1)]);

/** Field values: wrong types, edges of PostgreSQL integers, sizes, encodings, injections. */
export const BAD_VALUES: readonly unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0001, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 64, 1e308, -1e308,
  '', ' ', '\t\n', '0', '-1', '1.5', '2147483648', '9'.repeat(40), 'NaN', 'Infinity', 'null', 'true',
  'x'.repeat(10_000), 'y'.repeat(200_000), '\uD800', '\uFFFF', '😀'.repeat(50), 'ß漢字\u202E',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', "' OR 1=1 --", "'; DROP TABLE users; --", '%', '_', '\\', '../../etc/passwd',
  '${7*7}', '{{7*7}}', '2026-02-30', '2026-13-45', '0000-00-00', '-271821-04-20T00:00:00Z', '9999-12-31T23:59:59Z',
  '=cmd|"/c calc"!A1', 'a@b', '@', 'x'.repeat(321) + '@example.com',
  [], [null], [1, 2, 3], ['a'], [[[]]], ['superAdmin'], [-1], [2 ** 31], new Array(500).fill(0),
  {}, { a: 1 }, { $gt: '' }, { ['__proto__']: { polluted: 1 } }, deepObject(64), deepArray(64),
];

/**
 * Text holding a NUL character, which PostgreSQL cannot store or compare in text
 * ("invalid byte sequence for encoding UTF8: 0x00"). Swept by its own test so a
 * failure there names exactly this problem.
 */
export const NUL_TEXTS: readonly string[] = ['\u0000', 'a\u0000b'];

/** Keys added next to valid ones: unknown, reserved and prototype-polluting. */
export const EXTRA_KEYS: readonly string[] = ['extra', '__proto__', 'constructor', 'prototype', 'tenantId', 'id', 'roles', '$where', '', 'a'.repeat(300)];

/** Whole bodies sent as raw text with a JSON content type. */
export const RAW_BODIES: readonly string[] = [
  '', ' ', 'null', '[]', '"text"', '123', 'true', '{', '{"a":', '[1,2', '}', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"__proto__":null}',
  '\uFEFF{}', '{"a":1,"a":2}', 'NaN', '1e999', '{"a":1e999}', '{"a":"\\ud800"}', '{"a":"\\u0000"}',
  '['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(3000) + '1' + '}'.repeat(3000), `{"a":"${'z'.repeat(300_000)}"}`,
];

/** Content types around a JSON body. */
export const CONTENT_TYPES: readonly string[] = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1',
  'application/json; charset=utf-16', 'application/xml', 'application/json, text/plain', '', 'application/vnd.api+json',
];

/** Authorization headers that are not a valid bearer token. */
export const BAD_AUTH: readonly string[] = ['Bearer', 'Bearer ', 'Bearer x', 'Bearer a.b.c', 'Basic YTpi', 'bearer', 'Bearer ' + 'e'.repeat(10_000), 'Bearer eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOjF9.'];

/** Query strings (key=value pairs, values not yet encoded) that are wrong for some list or report query. */
export const BAD_QUERIES: readonly [string, string][][] = [
  ...[
    '', 'nope', '[', '[0]', '[0,1,2]', '[-1,10]', '[0,-5]', '[1.5,2]', '[0,1e12]', '[0,1e400]', '[9007199254740991,10]',
    '[9007199254740993,10]', '["0","10"]', '{}', 'null', '[null,null]', '[2147483648,10]', '[0,2147483648]',
  ].map((v) => [['range', v]] as [string, string][]),
  ...['', '["name"]', '["name","UP"]', '["password_hash","ASC"]', '["id;drop table x","ASC"]', '[1,2]', '{}', '"name"', '["__proto__","ASC"]'].map(
    (v) => [['sort', v]] as [string, string][],
  ),
  ...[
    '', '[]', 'null', '"x"', '{', '{"q":5}', '{"q":"%"}', '{"q":"\\ud800"}', `{"q":"${'%_\\\\'.repeat(60)}"}`, `{"q":"${'a'.repeat(5000)}"}`,
    '{"unknown":1}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{"a":{"b":{"c":{}}}}',
    '{"customerId":-1}', '{"customerId":3000000000}', '{"customerId":"1"}', '{"customerId":1.5}', '{"customerId":null}',
    '{"status":"x"}', '{"status":9}', '{"caseType":99}', '{"deviceType":-1}', '{"alertType":7}', '{"period":-1}',
    '{"tenantId":99999999999}', '{"userId":0}', '{"caseId":1e300}', '{"alertId":[1]}', '{"name":{"$ne":1}}', '{"tenantName":"%"}',
  ].map((v) => [['filter', v]] as [string, string][]),
  [['range', '[0,10]'], ['range', '[0,20]']],
  [['filter', '{}'], ['filter', '{}']],
  [['unknown', '1']],
  [['__proto__[x]', '1']],
  [['constructor', '1']],
  [['a[b][c]', '1']],
  ...['abc', '-1', '0', '1e400', '9999999999', '', '1.5', '[1]'].map((v) => [['customerId', v]] as [string, string][]),
  ...['9', 'abc', '-1', '', '1.5'].map((v) => [['period', v]] as [string, string][]),
  ...['[', '[9]', '[]', '{}', '"0"', '[0,0,0,0,0]', 'null'].map((v) => [['config', v]] as [string, string][]),
  [['from', 'notadate']],
  [['to', '2026-13-01T00:00:00Z']],
  [['from', '2026-01-02T00:00:00Z'], ['to', '2026-01-01T00:00:00Z']],
  [['from', '+275760-09-13T00:00:00Z']],
  [['from', '1970-01-01T00:00:00Z'], ['to', '2100-12-31T23:59:59Z']],
  [['ticket', 'x']],
];
