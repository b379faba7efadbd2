import type { FastifySerializerCompiler } from 'fastify';

/**
 * Answers of a shared read round (shared-reads.ts) are one object handed to every caller of the
 * round; each caller's reply would otherwise encode it through the response schema and stringify
 * it again. Marked answers are encoded once per route and reused by the round's other callers.
 *
 * Why only marked answers: reuse is safe only for an object nobody mutates after it is answered,
 * which the shared-reads contract promises for round results and nothing promises for the rest.
 * The cache holds the object weakly: once the round's replies are sent, both go.
 */
const sharedAnswers = new WeakSet<object>();

/** Marks a shared round's answer as immutable, so its serialization may be reused. */
export function markSharedAnswer<T>(answer: T): T {
  if (typeof answer === 'object' && answer !== null) sharedAnswers.add(answer);
  return answer;
}

/** Wraps a serializer compiler: per compiled route schema, a marked answer is serialized once. */
export function reusingSharedAnswers<S>(compile: FastifySerializerCompiler<S>): FastifySerializerCompiler<S> {
  return (route) => {
    const serialize = compile(route);
    const encoded = new WeakMap<object, string>();
    return (data: unknown) => {
      if (typeof data !== 'object' || data === null || !sharedAnswers.has(data)) return serialize(data);
      let text = encoded.get(data);
      if (text === undefined) {
        text = serialize(data);
        encoded.set(data, text);
      }
      return text;
    };
  };
}
