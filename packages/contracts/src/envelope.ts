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

/** The largest id: ids are PostgreSQL `integer`s. */
export const MAX_ID = 2147483647;
/** An id as a path segment writes it: canonical decimal, no sign, leading zero, space, exponent or hex. */
export const ID_SEGMENT = /^[1-9][0-9]{0,9}$/;
/** `12` names an id; `012`, `+12`, `0xc`, `1.2e1`, ` 12` or `2147483648` name nothing (docs/decisions.md 18). */
export const isIdSegment = (text: string): boolean => ID_SEGMENT.test(text) && Number(text) <= MAX_ID;

/**
 * An id in a path segment (`/customers/12`), parsed to a number. The server answers 404 for any other
 * text before validation (`http/path-ids.ts`), as it does for an id that names nothing.
 */
export const pathId = z.string().regex(ID_SEGMENT, 'must be an id').refine(isIdSegment, 'must be an id').transform(Number);

/** Integer id in a path segment (`/customers/12`). */
export const idParams = z.strictObject({ id: pathId });

export const isoDateTime = z.string().describe('ISO 8601 timestamp in UTC');
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');
