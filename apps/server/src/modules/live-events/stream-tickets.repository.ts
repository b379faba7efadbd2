import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { streamTickets } from '../../db/schema/index.ts';

/** A ticket opens one EventSource within this time (docs/decisions.md 28: short-lived, single use). */
export const STREAM_TICKET_TTL_MS = 60_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** The session a ticket was asked from (the access token's `sv` and `sid`), checked again when it is used. */
export interface TicketSession {
  userId: number;
  sv?: number;
  sid?: string;
}

/** A random ticket (256 bits) for this user's session; only its hash is stored. Also prunes stale tickets. */
export async function issueStreamTicket(
  executor: Executor,
  session: TicketSession,
  now: Date,
): Promise<{ ticket: string; expiresAt: Date }> {
  const { userId } = session;
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + STREAM_TICKET_TTL_MS);
  await executor
    .delete(streamTickets)
    .where(and(eq(streamTickets.userId, userId), or(lt(streamTickets.expiresAt, now), isNotNull(streamTickets.usedAt))));
  await executor
    .insert(streamTickets)
    .values({ tokenHash: hashOf(ticket), userId, expiresAt, sessionVersion: session.sv ?? 0, sessionId: session.sid ?? null });
  return { ticket, expiresAt };
}

/** Uses the ticket up (atomically: a second use finds it used); its session, or null when unknown, used or expired. */
export async function consumeStreamTicket(executor: Executor, ticket: string, now: Date): Promise<TicketSession | null> {
  const [row] = await executor
    .update(streamTickets)
    .set({ usedAt: now })
    .where(and(eq(streamTickets.tokenHash, hashOf(ticket)), isNull(streamTickets.usedAt), gt(streamTickets.expiresAt, now)))
    .returning({ userId: streamTickets.userId, sv: streamTickets.sessionVersion, sid: streamTickets.sessionId });
  if (!row) return null;
  return { userId: row.userId, sv: row.sv, ...(row.sid !== null && { sid: row.sid }) };
}
