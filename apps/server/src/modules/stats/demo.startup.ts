import type { StartupTask } from '../startup.ts';
import type { RunningSimulator } from '../../simulator/index.ts';
import { demoBanner, seedDemo } from './demo-seed.ts';
import { startDemoSimulator } from './demo-simulator.ts';

/**
 * At start (decisions.md §1): seeds the demo on an empty database (SEED=demo) and prints the
 * URL and sign-ins; with SIMULATOR=on, once the server listens, keeps the demo tenant's devices
 * alive through signed webhooks to this very server. Returns the simulator's stop function.
 */
export const demoStartup: StartupTask = async (deps, app) => {
  if (deps.config.seed === 'demo') {
    const started = Date.now();
    const demo = await seedDemo(deps);
    if (demo) {
      deps.log.info({ ms: Date.now() - started }, 'demo seeded');
      // The console is the one place the demo password is shown (decisions.md §1).
      console.log(demoBanner(deps.config.publicUrl, demo));
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
