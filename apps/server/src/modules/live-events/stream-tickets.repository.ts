import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { streamTickets } from '../../db/schema/index.ts';

/** A ticket opens one EventSource within this time (docs/decisions.md 28: short-lived, single use). */
export const STREAM_TICKET_TTL_MS = 60_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** A random ticket (256 bits) for this user; only its hash is stored. Also prunes stale tickets. */
export async function issueStreamTicket(executor: Executor, userId: number, now: Date): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + STREAM_TICKET_TTL_MS);
  await executor
    .delete(streamTickets)
    .where(and(eq(streamTickets.userId, userId), or(lt(streamTickets.expiresAt, now), isNotNull(streamTickets.usedAt))));
  await executor.insert(streamTickets).values({ tokenHash: hashOf(ticket), userId, expiresAt });
  return { ticket, expiresAt };
}

/** Uses the ticket up (atomically: a second use finds it used); the user id, or null when unknown, used or expired. */
export async function consumeStreamTicket(executor: Executor, ticket: string, now: Date): Promise<number | null> {
  const [row] = await executor
    .update(streamTickets)
    .set({ usedAt: now })
    .where(and(eq(streamTickets.tokenHash, hashOf(ticket)), isNull(streamTickets.usedAt), gt(streamTickets.expiresAt, now)))
    .returning({ userId: streamTickets.userId });
  return row?.userId ?? null;
}
