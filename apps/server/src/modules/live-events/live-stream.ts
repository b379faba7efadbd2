import { LIVE_EVENTS_STREAM_PATH } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { queryRows } from '../../db/client.ts';
import { allTenants, inScope, tenantScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { statusCounts } from '../stats/stats.repository.ts';
import { sseMessage, type LiveHub, type StreamClient } from './live-hub.ts';
import { liveEventsSnapshot } from './live-events.repository.ts';
import { consumeStreamTicket } from './stream-tickets.ts';

/** Whose events a ticket's user may see: a tenant, every tenant (superAdmin), or nothing. */
async function audienceOf(deps: AppDeps, userId: number): Promise<{ tenantId: number | undefined } | null> {
  const [user] = await inScope(deps.database.db, allTenants, (tx) =>
    queryRows<{ tenant_id: number | null; roles: string[] }>(
      tx,
      sql`select u.tenant_id, u.roles from users u left join tenants t on t.id = u.tenant_id
           where u.id = ${userId} and u.deactivated_at is null and (u.tenant_id is null or t.deleted_at is null)`,
    ),
  );
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
    const userId = await inScope(deps.database.db, allTenants, (tx) => consumeStreamTicket(tx, ticket, deps.clock.now()));
    const audience = userId === null ? null : await audienceOf(deps, userId);
    if (!audience) throw unauthorized();

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 3000\n\n');
    const client: StreamClient = { tenantId: audience.tenantId, raw, pending: [] };
    hub.add(client);
    req.raw.on('close', () => hub.remove(client));

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
      raw.end();
    }
  });
}
