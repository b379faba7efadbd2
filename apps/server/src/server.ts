import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createDeps, type AppDeps } from './deps.ts';
import { createLogger } from './lib/logger.ts';
import { startups } from './startup.ts';

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
      for (const stop of stoppers.reverse()) await stop();
      // close() stops accepting connections and waits for in-flight requests to finish.
      await app.close();
      await deps.bus.stop();
      await database.close();
    },
  };
}
