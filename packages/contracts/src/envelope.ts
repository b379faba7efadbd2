import { z } from 'zod';

/** Single resource answer: `{"data": {...}}` (docs/decisions.md 15). */
export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** List answer: `{"data": {"list": [...], "count": N}}`; count is the total matching the filter. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.object({ list: z.array(item), count: z.number().int() }) });

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    msg: z.string(),
    requestId: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const okBody = dataOf(z.object({ ok: z.literal(true) }));

/** Integer id in a path segment (`/customers/12`). */
export const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(2147483647) });

export const isoDateTime = z.string().describe('ISO 8601 timestamp in UTC');
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');
