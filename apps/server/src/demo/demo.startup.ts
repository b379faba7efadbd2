import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StartupTask } from '../startup.ts';
import type { RunningSimulator } from '../simulator/index.ts';
import { demoBanner, seedDemo } from './demo-seed.ts';
import { startDemoSimulator } from './demo-simulator.ts';

/**
 * At start (docs/decisions.md 11): seeds the demo on an empty database (SEED=demo) and prints the
 * URL and sign-ins; with SIMULATOR=on, once the server listens, keeps the demo tenant's devices
 * alive through signed webhooks to this very server. Returns the simulator's stop function.
 */
export const demoStartup: StartupTask = async (deps, app) => {
  if (deps.config.seed === 'demo') {
    const started = Date.now();
    const demo = await seedDemo(deps);
    const signInsFile = path.join(deps.config.dataDir, 'demo-sign-ins.txt');
    if (demo) {
      deps.log.info({ ms: Date.now() - started }, 'demo seeded');
      // The console shows the sign-ins (docs/decisions.md 11); the file keeps them for later starts.
      const banner = demoBanner(deps.config.publicUrl, demo);
      mkdirSync(deps.config.dataDir, { recursive: true });
      writeFileSync(signInsFile, banner, { mode: 0o600 });
      console.log(banner);
    } else if (existsSync(signInsFile)) {
      console.log(readFileSync(signInsFile, 'utf8'));
    }
  }
  if (!deps.config.simulator) return;

  let simulator: RunningSimulator | undefined;
  let stopped = false;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (stopped || typeof address !== 'object' || !address) return;
    try {
      // The simulator posts to the socket this process listens on, whatever PUBLIC_URL says.
      simulator = await startDemoSimulator(deps, `http://127.0.0.1:${address.port}`);
      deps.log.info(simulator ? 'device simulator running for the demo tenant' : 'device simulator: no demo tenant to simulate');
    } catch (err) {
      deps.log.error({ err }, 'device simulator could not start');
    }
  });
  return async () => {
    stopped = true;
    await simulator?.stop();
  };
};
