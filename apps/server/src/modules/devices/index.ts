/** What other modules and jobs may use of devices: status change events and the offline sweep. */
export { publishStatusChanges, publishStatusEvents, statusEvents, type DeviceStatusChange } from './status-events.ts';
export { sweepOfflineDevices } from './offline-sweep.service.ts';
