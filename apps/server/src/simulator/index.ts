/** The device simulator: signed Standard Webhooks traffic for demos, load tests and benchmarks. */
export { signWebhook, devicesReported, deviceRemoved, webhookUrlOf, type DeviceReportBody, type SignedWebhook } from './signing.ts';
export { postWebhook, sendAll, emptyStats, percentile, type SendStats } from './sender.ts';
export { createFleet, stepFleet, reportOf, DEVICE_MODELS, type SimDevice } from './fleet.ts';
export { runLoad, type LoadOptions } from './load.ts';
export { startFleetSimulator, type FleetSimulatorOptions, type RunningSimulator, type SimPortal } from './demo-fleet.ts';
