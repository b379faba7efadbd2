import { z } from 'zod';
import { LIMITS } from './enums.ts';

export type SortDir = 'ASC' | 'DESC';
export interface ListQuery<F, S extends string = string> {
  offset: number;
  limit: number;
  sort?: { field: S; dir: SortDir };
  filter: F;
}

/** What a client sends: the JSON values before they are encoded into the query string. */
export interface ListQueryInput {
  range?: [number, number];
  sort?: [string, SortDir];
  filter?: Record<string, unknown>;
}

/** A query-string parameter holding JSON (`range=[0,10]`), parsed and then checked by `inner`. */
function jsonParam<T extends z.ZodType>(name: string, inner: T) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must be valid JSON` });
        return z.NEVER;
      }
    })
    .pipe(inner);
}

const rangeSchema = z
  .tuple([z.number().int().min(0, 'range offset must be >= 0'), z.number().int()], {
    error: 'range must be a JSON array [offset, count]',
  })
  .transform(([offset, count]) => ({
    offset,
    limit: Math.min(LIMITS.pageSizeMax, Math.max(1, count)),
  }));

/**
 * Query schema of a list endpoint (docs/decisions.md 16): `range`, `sort` and `filter`
 * as JSON, with the sort fields and filter keys of this resource only. Anything
 * else is a 400. `extra` adds plain parameters the product names (e.g. `customerId`).
 */
export function listQuery<S extends string, F extends z.ZodRawShape, X extends z.ZodRawShape = Record<never, never>>(opts: {
  sort: readonly [S, ...S[]];
  filter: F;
  extra?: X;
}) {
  const sortSchema = z.tuple(
    [
      z.enum(opts.sort, { error: `sort field must be one of: ${opts.sort.join(', ')}` }),
      z.enum(['ASC', 'DESC'], { error: 'sort direction must be ASC or DESC' }),
    ],
    {
      error: 'sort must be a JSON array [field, "ASC"|"DESC"]',
    },
  );
  const filterSchema = z.strictObject(opts.filter, { error: 'filter must be a JSON object' });
  return z
    .strictObject({
      range: jsonParam('range', rangeSchema).optional(),
      sort: jsonParam('sort', sortSchema).optional(),
      filter: jsonParam('filter', filterSchema).optional(),
      ...(opts.extra ?? ({} as X)),
    })
    .transform((q) => {
      const { range, sort, filter, ...extra } = q as {
        range?: { offset: number; limit: number };
        sort?: [S, SortDir];
        filter?: z.output<z.ZodObject<F>>;
      } & Record<string, unknown>;
      return {
        offset: range?.offset ?? 0,
        limit: range?.limit ?? LIMITS.pageSizeDefault,
        sort: sort ? { field: sort[0], dir: sort[1] } : undefined,
        filter: (filter ?? {}) as z.output<z.ZodObject<F>>,
        ...(extra as { [K in keyof X]: z.output<X[K]> }),
      };
    });
}

// Encoding lives with the schema-free routes so the browser can build list requests without zod.
export { toListSearchParams } from './routes.ts';

/** Common filter fields. */
export const qFilter = z.string().max(200).optional();
export const idFilter = z.number().int().positive().max(2147483647).optional();
