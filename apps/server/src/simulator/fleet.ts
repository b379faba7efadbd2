import { DEVICE_STATUS } from '@vigil/contracts';
import type { DeviceReportBody } from './signing.ts';

/** A simulated device: what the device cloud knows about it. */
export interface SimDevice {
  externalId: string;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: 0 | 1;
  /** Chance per minute of going offline while online (bad devices flap more). */
  flapPerMinute: number;
  /** When an offline device comes back (ms since epoch); 0 while online. */
  backAt: number;
  lastReportAt: number;
}

export const DEVICE_MODELS: readonly (readonly string[])[] = [
  ['Axis P3265-LVE', 'Hikvision DS-2CD2387G2', 'Hanwha XNV-8080R', 'Bosch FLEXIDOME 5100i'],
  ['2N IP Verso', 'Aiphone IX-DV', 'Akuvox R29C'],
  ['HID Signo 40', 'Verkada AC41', 'Genetec Synergis Cloud Link'],
  ['DSC PowerSeries Neo', 'Bosch B6512', 'Honeywell Vista-21iP'],
  ['Verkada SV11', 'Axis D6310 Air Quality', 'Sensaphone WEB600'],
];
const KIND = ['Camera', 'Intercom', 'Door Reader', 'Alarm Panel', 'Sensor'];
const PLACES = [
  'Lobby',
  'Loading Dock',
  'Parking North',
  'Parking South',
  'Server Room',
  'Main Entrance',
  'Stairwell B',
  'Warehouse',
  'Reception',
  'Rear Exit',
  'Roof',
  'Hallway 2F',
];

/** A deterministic fleet of `count` devices with realistic names and models (`prefix` keeps externalIds unique). */
export function createFleet(count: number, opts: { prefix?: string; now?: number; badShare?: number } = {}): SimDevice[] {
  const now = opts.now ?? Date.now();
  const badEvery = Math.max(1, Math.round(1 / (opts.badShare ?? 0.05)));
  return Array.from({ length: count }, (_, i) => {
    const deviceType = i % 5;
    const models = DEVICE_MODELS[deviceType];
    return {
      externalId: `${opts.prefix ?? 'sim'}-${i + 1}`,
      name: `${PLACES[i % PLACES.length]} ${KIND[deviceType]} ${Math.floor(i / PLACES.length) + 1}`,
      deviceType,
      deviceModel: models[i % models.length],
      status: DEVICE_STATUS.online,
      flapPerMinute: i % badEvery === badEvery - 1 ? 0.05 : 0.002,
      backAt: 0,
      lastReportAt: now,
    };
  });
}

export const reportOf = (d: SimDevice, at: Date): DeviceReportBody => ({
  externalId: d.externalId,
  name: d.name,
  deviceType: d.deviceType,
  deviceModel: d.deviceModel,
  status: d.status,
  at: at.toISOString(),
});

/**
 * Advances the fleet by `elapsedMs` at `now`: online devices go offline with their flap
 * chance, offline ones come back when their outage ends (1 to 10 minutes), and every
 * online device not heard of for `heartbeatMs` reports again. Returns the devices to report.
 */
export function stepFleet(
  fleet: SimDevice[],
  now: number,
  elapsedMs: number,
  heartbeatMs: number,
  random: () => number = Math.random,
): SimDevice[] {
  const due: SimDevice[] = [];
  const minutes = elapsedMs / 60_000;
  for (const d of fleet) {
    let changed = false;
    if (d.status === DEVICE_STATUS.online && random() < d.flapPerMinute * minutes) {
      d.status = DEVICE_STATUS.offline;
      d.backAt = now + 60_000 + random() * 9 * 60_000;
      changed = true;
    } else if (d.status === DEVICE_STATUS.offline && d.backAt > 0 && now >= d.backAt) {
      d.status = DEVICE_STATUS.online;
      d.backAt = 0;
      changed = true;
    }
    if (changed || (d.status === DEVICE_STATUS.online && now - d.lastReportAt >= heartbeatMs)) {
      d.lastReportAt = now;
      due.push(d);
    }
  }
  return due;
}
