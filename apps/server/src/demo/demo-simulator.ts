import { DEVICE_STATUS } from '@vigil/contracts';
import { allTenants, inScope } from '../db/scope.ts';
import type { AppDeps } from '../deps.ts';
import { startFleetSimulator, type RunningSimulator, type SimDevice } from '../simulator/index.ts';
import { demoFleet } from './demo-fleet.repository.ts';

/**
 * Starts the device simulator for the demo tenant's portals against this server's own HTTP
 * port: the inventory is read once, every change goes through signed webhooks. Devices flap
 * a few times a minute in total; online devices report at half the tenant's heartbeat timeout.
 * Returns undefined when there is no demo tenant to simulate.
 */
export async function startDemoSimulator(deps: AppDeps, baseUrl: string): Promise<RunningSimulator | undefined> {
  const rows = await inScope(deps.database.db, allTenants, (tx) => demoFleet(tx));
  if (rows.length === 0) return undefined;
  const now = deps.clock.now().getTime();
  const portals = new Map<number, { portalId: number; secret: string; fleet: SimDevice[] }>();
  for (const r of rows) {
    let portal = portals.get(r.portal_id);
    if (!portal) portals.set(r.portal_id, (portal = { portalId: r.portal_id, secret: deps.secretBox.open(r.secret), fleet: [] }));
    const bad = portal.fleet.length % 20 === 19;
    portal.fleet.push({
      externalId: r.external_id,
      name: r.name,
      deviceType: r.device_type,
      deviceModel: r.device_model,
      status: r.status === DEVICE_STATUS.online ? DEVICE_STATUS.online : DEVICE_STATUS.offline,
      // ~300 devices: about 2 outages a minute overall, the bad ones ten times likelier
      flapPerMinute: bad ? 0.05 : 0.004,
      // Offline now: back within 1-10 minutes (the first tick reports everyone else).
      backAt: r.status === DEVICE_STATUS.online ? 0 : now + 60_000 + Math.random() * 9 * 60_000,
      lastReportAt: 0,
    });
  }
  const heartbeatMs = (Number(rows[0].heartbeat_timeout) * 60_000) / 2;
  let lastErrorLog = 0;
  return startFleetSimulator({
    url: baseUrl,
    portals: [...portals.values()],
    heartbeatMs,
    now: () => deps.clock.now(),
    onError: (err) => {
      if (Date.now() - lastErrorLog < 60_000) return;
      lastErrorLog = Date.now();
      deps.log.warn({ err }, 'demo simulator: a tick failed');
    },
  });
}
