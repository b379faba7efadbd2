import { liveEventsEndpoints } from '@vigil/contracts';
import type { AppDeps } from '../../deps.ts';
import { route, tenantOf, type AppModule } from '../../http/route.ts';
import { LiveHub } from './live-hub.ts';
import { issueStreamTicket, liveEventsPage } from './live-events.service.ts';
import { registerLiveStream } from './live-stream.ts';

/** The hub of each app (by its deps), for tests and diagnostics (connected client count). */
export const liveHubs = new WeakMap<AppDeps, LiveHub>();

/** Live events: the list, stream tickets and the Server-Sent Events stream (docs/decisions.md 28). */
export const liveEventsModule: AppModule = (app, deps) => {
  const hub = new LiveHub(deps);
  hub.start();
  liveHubs.set(deps, hub);
  // Before the server waits for open connections to finish: end the streams, which never finish alone.
  app.addHook('preClose', () => hub.stop());

  route(app, deps, liveEventsEndpoints.list, {
    permission: 'monitoring:read',
    handler: async ({ query, scope, readTx }) => {
      const page = await readTx((reader) => liveEventsPage(reader, tenantOf(scope), query));
      const list = scope.kind === 'all' ? page.list : page.list.map(({ tenantName: _omit, ...row }) => row);
      return { data: { list, count: page.count } };
    },
  });

  route(app, deps, liveEventsEndpoints.ticket, {
    permission: 'monitoring:read',
    handler: async ({ principal, tx }) => {
      const issued = await tx((t) => issueStreamTicket(t, principal, deps.clock.now()));
      return { data: { ticket: issued.ticket, expiresAt: issued.expiresAt.toISOString() } };
    },
  });

  registerLiveStream(app, deps, hub);
};
