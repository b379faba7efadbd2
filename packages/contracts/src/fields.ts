import { z } from 'zod';

/** A required text field whose every failure (missing, not text, blank) answers the product's message. */
export const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `at most ${max} characters`);

export const optionalText = (max = 200) => z.string().trim().max(max, `at most ${max} characters`).optional();

export const password = z
  .string({ error: 'Please input password' })
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');
