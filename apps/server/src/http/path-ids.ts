import { isIdSegment, pathId, type Endpoint } from '@vigil/contracts';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { notFound } from './errors.ts';

/**
 * The endpoint's path parameters that are ids (`pathId` in its params schema), checked before validation:
 * a segment that is no canonical id (`0x10`, `+1`, `1e0`, `00001`, ` 1`, `1.0`, `2147483648`) names
 * nothing, so it answers the route's ordinary 404 NOT_FOUND, as an id that names no row does, and never
 * the 400 of a schema failure or, through a lenient parse, another row (`DELETE /tenants/0x10` once
 * deleted tenant 16). Like an unknown path, it answers so before the token is looked at.
 * Route options to spread: the preValidation hook, or nothing when the endpoint has no id in its path.
 */
export function idSegmentsOr404(endpoint: Endpoint): { preValidation?: preValidationAsyncHookHandler } {
  const shape = endpoint.params instanceof z.ZodObject ? (endpoint.params.shape as Record<string, unknown>) : {};
  const names = Object.keys(shape).filter((name) => shape[name] === pathId);
  if (!names.length) return {};
  return {
    preValidation: (req: FastifyRequest) => {
      const params = req.params as Record<string, string | undefined>;
      const canonical = names.every((name) => isIdSegment(params[name] ?? ''));
      return canonical ? Promise.resolve() : Promise.reject(notFound());
    },
  };
}
