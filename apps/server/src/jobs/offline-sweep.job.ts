import { sweepOfflineDevices } from '../modules/devices/index.ts';
import type { Job } from './scheduler.ts';

/** Offline sweep (modules/devices/offline-sweep.service.ts): every 30 s, each tick in one process. */
export const offlineSweepJob: Job = {
  name: 'offline-sweep',
  everyMs: 30_000,
  run: async (deps) => {
    await sweepOfflineDevices(deps, deps.clock.now());
  },
};
