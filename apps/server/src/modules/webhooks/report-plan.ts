import type { DeviceReport } from '@vigil/contracts';
import type { InventoryInput, InventoryRow, ReportRound } from './ingest.repository.ts';

/**
 * How the `devices.reported` messages of one commit group become a few set-based statements.
 *
 * The result must equal applying the messages one after the other, in group order. Within one
 * message, a device's reports are applied in `at` order (ties: message order), so a device that
 * went offline and came back within one message keeps both periods. Across messages, message
 * order comes first: a device's reports form one sequence (message 1's reports by time, then
 * message 2's, ...), and each report applies only when newer than the state before it, exactly
 * as if each message had its own transaction. Round k holds the k-th report of every device of
 * the group, so a group where each device is reported once is exactly one round.
 */
export interface TimedReport {
  status: number;
  at: string;
}

export interface PortalReports {
  tenantId: number;
  portalId: number;
  reports: DeviceReport[];
}

export interface ReportPlan {
  inventory: InventoryInput;
  /** Each device's reports in application order, by deviceKey(portalId, externalId). */
  reportsByDevice: Map<string, TimedReport[]>;
}

/** A device of the group: numeric portal id first, so the key is unambiguous whatever the external id holds. */
export const deviceKey = (portalId: number, externalId: string) => `${portalId}:${externalId}`;

interface PlannedDevice {
  tenantId: number;
  portalId: number;
  externalId: string;
  /** The newest report of the last message naming the device: the device cloud's current view. */
  newest: DeviceReport;
  reports: TimedReport[];
}

/** One message's reports per device, oldest first (a stable sort keeps message order on ties). */
function byDevice(reports: DeviceReport[]): Map<string, { report: DeviceReport; ms: number }[]> {
  const grouped = new Map<string, { report: DeviceReport; ms: number }[]>();
  for (const report of reports) {
    const list = grouped.get(report.externalId);
    const entry = { report, ms: Date.parse(report.at) };
    if (list) list.push(entry);
    else grouped.set(report.externalId, [entry]);
  }
  for (const list of grouped.values()) if (list.length > 1) list.sort((a, b) => a.ms - b.ms);
  return grouped;
}

export function planReports(messages: PortalReports[]): ReportPlan {
  const devices = new Map<string, PlannedDevice>();
  for (const message of messages) {
    for (const [externalId, ordered] of byDevice(message.reports)) {
      const key = deviceKey(message.portalId, externalId);
      let device = devices.get(key);
      if (!device)
        devices.set(
          key,
          (device = { tenantId: message.tenantId, portalId: message.portalId, externalId, newest: ordered[0].report, reports: [] }),
        );
      device.newest = ordered[ordered.length - 1].report;
      for (const o of ordered) device.reports.push({ status: o.report.status, at: new Date(o.ms).toISOString() });
    }
  }
  const inventory: InventoryInput = {
    tenantIds: [],
    portalIds: [],
    externalIds: [],
    names: [],
    deviceTypes: [],
    deviceModels: [],
    statuses: [],
    ats: [],
  };
  const reportsByDevice = new Map<string, TimedReport[]>();
  for (const [key, d] of devices) {
    inventory.tenantIds.push(d.tenantId);
    inventory.portalIds.push(d.portalId);
    inventory.externalIds.push(d.externalId);
    inventory.names.push(d.newest.name);
    inventory.deviceTypes.push(d.newest.deviceType);
    inventory.deviceModels.push(d.newest.deviceModel);
    // A device created by this group starts with its first report in application order.
    inventory.statuses.push(d.reports[0].status);
    inventory.ats.push(d.reports[0].at);
    reportsByDevice.set(key, d.reports);
  }
  return { inventory, reportsByDevice };
}

/** The rounds left after the inventory upsert: a device just created already holds its first report. */
export function roundsOf(plan: ReportPlan, inventory: InventoryRow[]): ReportRound[] {
  const rounds: ReportRound[] = [];
  for (const row of inventory) {
    const reports = plan.reportsByDevice.get(deviceKey(row.portal_id, row.external_id)) ?? [];
    for (let k = row.created ? 1 : 0; k < reports.length; k++) {
      const round = (rounds[row.created ? k - 1 : k] ??= { tenantIds: [], portalIds: [], deviceIds: [], statuses: [], ats: [] });
      round.tenantIds.push(row.tenant_id);
      round.portalIds.push(row.portal_id);
      round.deviceIds.push(row.id);
      round.statuses.push(reports[k].status);
      round.ats.push(reports[k].at);
    }
  }
  return rounds;
}

/** Index of the first report dated beyond `limit` (a sender clock far ahead would freeze the device's state), or -1. */
export const firstReportAfter = (reports: DeviceReport[], limit: Date) => reports.findIndex((r) => Date.parse(r.at) > limit.getTime());
