import { healthEndpoints } from '@vigil/contracts';
import { AppError } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import { pingDatabase } from './health.service.ts';

export const healthModule: AppModule = (app, deps) => {
  route(app, deps, healthEndpoints.healthz, { permission: 'public', handler: () => ({ status: 'ok' as const }) });
  route(app, deps, healthEndpoints.readyz, {
    permission: 'public',
    handler: async () => {
      try {
        await pingDatabase(deps.database.db);
      } catch {
        throw new AppError('UNAVAILABLE', 'The database is not reachable.');
      }
      return { status: 'ok' as const, database: deps.database.kind === 'pglite' ? ('pglite' as const) : ('postgres' as const) };
    },
  });
};
