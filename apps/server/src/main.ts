// First: V8's settings apply to what the modules below allocate (lib/v8-flags.ts).
import './lib/v8-flags.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const server = await startServer(config);
  server.deps.log.info(`Vigil is running at ${config.publicUrl} (database: ${server.database.kind})`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.deps.log.info(`${signal} received: finishing in-flight requests and closing the database`);
    const force = setTimeout(() => {
      server.deps.log.error('graceful shutdown timed out after 30 s');
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      await server.stop();
      process.exit(0);
    } catch (err) {
      server.deps.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('Vigil failed to start:', err);
  process.exit(1);
});
