import { LIVE_EVENTS_STREAM_PATH } from '@vigil/contracts';
import type { FastifyInstance } from 'fastify';
import { allTenants, inScope, tenantScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { statusCounts } from '../stats/index.ts';
import type { LiveHub, StreamClient } from './live-hub.ts';
import { findStreamUser, liveEventsSnapshot } from './live-events.repository.ts';
import { sseFrame, sseHead, sseMessage } from './sse-wire.ts';
import { consumeStreamTicket } from './stream-tickets.repository.ts';

/** Whose events a ticket's user may see: a tenant, every tenant (superAdmin), or nothing. */
async function audienceOf(deps: AppDeps, userId: number): Promise<{ tenantId: number | undefined } | null> {
  const user = await inScope(deps.database.db, allTenants, (tx) => findStreamUser(tx, userId));
  if (!user) return null;
  if (user.roles.includes('superAdmin')) return { tenantId: undefined };
  return user.tenant_id === null ? null : { tenantId: user.tenant_id };
}

/**
 * GET /v0/api/live-events/stream?ticket=...: Server-Sent Events. Mounted outside route()
 * because it answers text/event-stream for as long as the browser stays, and authenticates
 * by a single-use ticket (an EventSource cannot send an Authorization header).
 */
export function registerLiveStream(app: FastifyInstance, deps: AppDeps, hub: LiveHub): void {
  app.get(LIVE_EVENTS_STREAM_PATH, async (req, reply) => {
    const ticket = (req.query as Record<string, unknown>).ticket;
    if (typeof ticket !== 'string' || ticket.length === 0 || ticket.length > 100) throw unauthorized();
    const session = await inScope(deps.database.db, allTenants, (tx) => consumeStreamTicket(tx, ticket, deps.clock.now()));
    // A ticket asked for by a session that has ended since (docs/auth.md "When access ends") opens nothing.
    const audience = session === null || !(await deps.sessions.isCurrent(session)) ? null : await audienceOf(deps, session.userId);
    if (!audience) throw unauthorized();

    // The stream is written to the socket directly, its head by hand: a fan-out then hands every
    // socket the same pre-framed Buffer, and no ServerResponse (nor fastify's reply and its
    // listeners) stays alive per connected client (see docs/stats-live.md).
    reply.hijack();
    const socket = req.raw.socket;
    const res = reply.raw;
    // Gone while the ticket was checked: nothing to register (its 'close' has fired already).
    if (socket.destroyed) return;
    // A request pipelined behind an unfinished response on the same connection (browsers do not
    // pipeline): writing to the socket now would interleave with it. Close; the web app
    // reconnects with a fresh ticket.
    if (res.socket !== socket) return void socket.destroy();
    const chunked = req.raw.httpVersion !== '1.0';
    const head = sseHead(req.raw.httpVersion, reply.getHeaders(), chunked);
    const retry = sseFrame('retry: 3000\n\n');
    socket.write(head);
    socket.write(chunked ? retry.chunked : retry.plain);
    res.detachSocket(socket);
    res.removeAllListeners();
    // Events are small and latency matters: no Nagle delay behind an unacknowledged segment.
    socket.setNoDelay(true);
    const client: StreamClient = { tenantId: audience.tenantId, socket, chunked, pending: [], session: session! };
    hub.add(client);
    socket.once('close', () => hub.remove(client));

    try {
      const scope = audience.tenantId === undefined ? allTenants : tenantScope(audience.tenantId);
      const snapshot = await inScope(deps.database.db, scope, async (tx) => ({
        liveEvents: await liveEventsSnapshot(tx, audience.tenantId),
        summary: await statusCounts(tx, audience.tenantId),
      }));
      hub.open(client, sseMessage('snapshot', snapshot));
    } catch (err) {
      req.log.error({ err }, 'live events: snapshot failed');
      hub.remove(client);
      socket.destroy();
    }
  });
}
