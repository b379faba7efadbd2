import { healthEndpoints } from '@vigil/contracts';
import { AppError } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import { pingDatabase } from './health.service.ts';

/** How long readyz waits for the database's answer before it calls it down. */
const PING_TIMEOUT_MS = 2_000;

export const healthModule: AppModule = (app, deps) => {
  route(app, deps, healthEndpoints.healthz, { permission: 'public', handler: () => ({ status: 'ok' as const }) });
  route(app, deps, healthEndpoints.readyz, {
    permission: 'public',
    handler: async () => {
      const database = await pingDatabase(deps.database.db, PING_TIMEOUT_MS).then(
        () => 'ok' as const,
        () => 'down' as const,
      );
      // The LISTEN session (db/listen-session.ts): while it reconnects, this process misses live events.
      const events = deps.database.listening() ? ('ok' as const) : ('down' as const);
      if (database === 'down' || events === 'down') {
        const down = [database === 'down' && 'the database is not reachable', events === 'down' && 'live events are reconnecting']
          .filter(Boolean)
          .join('; ');
        throw new AppError(
          'UNAVAILABLE',
          `Not ready: ${down}.`,
          { 'retry-after': '1' },
          { status: 'unavailable', checks: { database, events } },
        );
      }
      return { status: 'ok' as const, database: deps.database.kind, checks: { database, events } };
    },
  });
};
