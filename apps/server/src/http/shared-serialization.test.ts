import type { FastifySerializerCompiler } from 'fastify';
import { describe, expect, it } from 'vitest';
import { markSharedAnswer, reusingSharedAnswers } from './shared-serialization.ts';

type RouteDef = Parameters<FastifySerializerCompiler<unknown>>[0];
const route = (url: string) => ({ schema: {}, method: 'GET', url, httpStatus: '200' }) as unknown as RouteDef;

/** A serializer compiler that counts its serializations (per compiled route, prefixed with its url). */
function countingCompiler() {
  const calls: string[] = [];
  const compile: FastifySerializerCompiler<unknown> = (def) => (data: unknown) => {
    calls.push(def.url);
    return `${def.url}:${JSON.stringify(data)}`;
  };
  return { compile: reusingSharedAnswers(compile), calls };
}

describe('reusingSharedAnswers', () => {
  it('serializes a shared answer once per route, however many callers reply with it', () => {
    const { compile, calls } = countingCompiler();
    const serialize = compile(route('/v0/portals'));
    const answer = markSharedAnswer({ data: { list: [{ id: 1 }] } });
    const texts = Array.from({ length: 5 }, () => serialize(answer));
    expect(new Set(texts)).toEqual(new Set(['/v0/portals:{"data":{"list":[{"id":1}]}}']));
    expect(calls).toEqual(['/v0/portals']);
  });

  it('keeps each route its own encoding of the same answer', () => {
    const { compile, calls } = countingCompiler();
    const answer = markSharedAnswer({ n: 1 });
    expect(compile(route('/a'))(answer)).toBe('/a:{"n":1}');
    expect(compile(route('/b'))(answer)).toBe('/b:{"n":1}');
    expect(calls).toEqual(['/a', '/b']);
  });

  it('serializes answers that are not marked every time (they may be mutated between replies)', () => {
    const { compile, calls } = countingCompiler();
    const serialize = compile(route('/v0/me'));
    const answer = { count: 1 };
    expect(serialize(answer)).toBe('/v0/me:{"count":1}');
    answer.count = 2;
    expect(serialize(answer)).toBe('/v0/me:{"count":2}');
    expect(calls).toHaveLength(2);
  });

  it('passes primitives and null through to the inner serializer', () => {
    const { compile, calls } = countingCompiler();
    const serialize = compile(route('/x'));
    expect(markSharedAnswer(null)).toBeNull();
    expect(serialize(null)).toBe('/x:null');
    expect(serialize(markSharedAnswer(3))).toBe('/x:3');
    expect(calls).toHaveLength(2);
  });

  it('propagates a serialization failure instead of caching it', () => {
    let fail = true;
    const compile = reusingSharedAnswers(() => () => {
      if (fail) throw new Error('response does not match its schema');
      return 'ok';
    });
    const serialize = compile(route('/y'));
    const answer = markSharedAnswer({});
    expect(() => serialize(answer)).toThrow('response does not match its schema');
    fail = false;
    expect(serialize(answer)).toBe('ok');
  });
});
