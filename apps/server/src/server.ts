import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createDeps, type AppDeps } from './deps.ts';
import { createLogger } from './lib/logger.ts';
import { startups } from './startup.ts';

/** How long a stopping server lets in-flight requests finish before it closes their connections. */
export const SHUTDOWN_DRAIN_MS = 10_000;

export interface RunningServer {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, builds the app, runs start-up tasks and listens. */
export async function startServer(config: Config, overrides: Partial<AppDeps> = {}): Promise<RunningServer> {
  const log = overrides.log ?? createLogger(config.logLevel, config.logFormat);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateDatabase(database);
  const deps = createDeps(config, database, log, overrides);
  await deps.bus.start();
  const app = await buildApp(deps);
  const stoppers: (() => Promise<void> | void)[] = [];
  for (const task of startups) {
    const stop = await task(deps, app);
    if (stop) stoppers.push(stop);
  }
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let stopped = false;
  return {
    app,
    deps,
    database,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      // First no new connections: close() stops listening and from then answers 503 to any request
      // that is not yet running (so /readyz fails at once), ends the SSE streams (preClose,
      // live-stream.ts) and waits for the in-flight requests, at most SHUTDOWN_DRAIN_MS.
      const cut = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_DRAIN_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      for (const stop of stoppers.reverse()) await stop();
      await deps.bus.stop();
      await database.close();
    },
  };
}
