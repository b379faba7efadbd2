import type { DeviceReport } from '@vigil/contracts';
import type { InventoryInput, InventoryRow, ReportRound } from './ingest.repository.ts';

/**
 * How one `devices.reported` message becomes a few set-based statements.
 *
 * Several reports for one device in one message are applied in `at` order (ties:
 * message order), so a device that went offline and came back within one message
 * keeps both periods in its history. Round k holds the k-th report of every device,
 * so a message with one report per device is exactly one round.
 */
export interface TimedReport {
  status: number;
  at: string;
}

export interface ReportPlan {
  inventory: InventoryInput;
  /** Each device's reports, oldest first, by external id. */
  reportsByDevice: Map<string, TimedReport[]>;
}

export function planReports(reports: DeviceReport[]): ReportPlan {
  const grouped = new Map<string, { report: DeviceReport; ms: number }[]>();
  for (const report of reports) {
    const list = grouped.get(report.externalId) ?? [];
    list.push({ report, ms: Date.parse(report.at) });
    grouped.set(report.externalId, list);
  }
  const inventory: InventoryInput = { externalIds: [], names: [], deviceTypes: [], deviceModels: [], statuses: [], ats: [] };
  const reportsByDevice = new Map<string, TimedReport[]>();
  for (const externalId of [...grouped.keys()].sort()) {
    const ordered = grouped.get(externalId)!.sort((a, b) => a.ms - b.ms);
    const oldest = ordered[0]!;
    // Inventory fields come from the newest report: the device cloud's current view of the device.
    const newest = ordered[ordered.length - 1]!.report;
    inventory.externalIds.push(externalId);
    inventory.names.push(newest.name);
    inventory.deviceTypes.push(newest.deviceType);
    inventory.deviceModels.push(newest.deviceModel);
    inventory.statuses.push(oldest.report.status);
    inventory.ats.push(new Date(oldest.ms).toISOString());
    reportsByDevice.set(
      externalId,
      ordered.map((o) => ({ status: o.report.status, at: new Date(o.ms).toISOString() })),
    );
  }
  return { inventory, reportsByDevice };
}

/** The rounds left after the inventory upsert: a device just created already holds its oldest report. */
export function roundsOf(plan: ReportPlan, inventory: InventoryRow[]): ReportRound[] {
  const rounds: ReportRound[] = [];
  for (const row of inventory) {
    const reports = plan.reportsByDevice.get(row.external_id) ?? [];
    const pending = row.created ? reports.slice(1) : reports;
    pending.forEach((report, k) => {
      const round = (rounds[k] ??= { deviceIds: [], statuses: [], ats: [] });
      round.deviceIds.push(row.id);
      round.statuses.push(report.status);
      round.ats.push(report.at);
    });
  }
  return rounds;
}

/** Index of the first report dated beyond `limit` (a sender clock far ahead would freeze the device's state), or -1. */
export const firstReportAfter = (reports: DeviceReport[], limit: Date) => reports.findIndex((r) => Date.parse(r.at) > limit.getTime());
