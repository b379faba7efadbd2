import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { oneTimeTokens } from '../db/schema/index.ts';

export type OneTimePurpose = 'verify' | 'reset' | 'invite';

/** Lifetimes of mailed tokens (docs/decisions.md 21). */
export const ONE_TIME_TTL_MS: Record<OneTimePurpose, number> = {
  verify: 24 * 3600_000,
  reset: 3600_000,
  invite: 72 * 3600_000,
};

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Creates a single-use token (256 random bits); only its hash is stored. */
export async function createOneTimeToken(executor: Executor, userId: number, purpose: OneTimePurpose, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await executor.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + ONE_TIME_TTL_MS[purpose]),
  });
  return token;
}

/** Uses up a token of one of the given purposes; the user id, or null when unknown, used, expired or of another purpose. */
export async function consumeOneTimeToken(
  executor: Executor,
  token: string,
  purposes: OneTimePurpose[],
  now: Date,
): Promise<{ userId: number; purpose: OneTimePurpose } | null> {
  const [row] = await executor
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        inArray(oneTimeTokens.purpose, purposes),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose });
  if (!row) return null;
  return { userId: row.userId, purpose: row.purpose as OneTimePurpose };
}
