import { CASE_STATUSES, type ReportContent } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { dailyOnlineShare, maintenanceSeconds, reliabilityByPortal, topOfflineDevices } from '../stats/index.ts';
import { reportPeriod } from './periods.ts';
import { caseFigures, deviceStatusCounts, tenantReportSettings, type PortalRef } from './reports.repository.ts';

/** How many devices the "most offline time" table lists. */
export const TOP_OFFLINE_LIMIT = 10;

/**
 * Computes a report's content for its period as it stands at `now` (docs/decisions.md 33): only
 * the sections named in `config` (0 open cases, 1 portal pulse, 2 reliability).
 */
export async function computeReportContent(
  tx: Executor,
  opts: { portal: PortalRef; period: number; config: number[]; now: Date },
): Promise<ReportContent> {
  const { portal, now } = opts;
  const tenantId = portal.tenantId;
  const settings = await tenantReportSettings(tx, tenantId);
  const period = reportPeriod(opts.period, now, settings.timezone);
  const window = { tenantId, portalId: portal.id, from: period.from, to: period.to };
  const content: ReportContent = {
    portal: { id: portal.id, name: portal.name },
    period: {
      code: period.code,
      label: period.label,
      from: period.from.toISOString(),
      to: period.to.toISOString(),
      timezone: period.timezone,
    },
    generatedAt: now.toISOString(),
    config: [...opts.config],
  };

  if (opts.config.includes(0)) {
    const figures = await caseFigures(tx, tenantId, portal.id, period.from, period.to);
    const byStatus = CASE_STATUSES.map((status, caseType) => ({ caseType, status, count: figures.byStatus.get(caseType) ?? 0 }));
    content.openCases = {
      byStatus,
      openAtEnd: byStatus.filter((s) => s.caseType < 4).reduce((sum, s) => sum + s.count, 0),
      openedInPeriod: figures.openedInPeriod,
      completedInPeriod: figures.completedInPeriod,
    };
  }

  if (opts.config.includes(1)) {
    const counts = await deviceStatusCounts(tx, tenantId, portal.id);
    const daily = period.to > period.from ? await dailyOnlineShare(tx, { ...window, timezone: period.timezone }) : [];
    content.portalPulse = { onlineCount: counts.online, offlineCount: counts.offline, daily };
  }

  if (opts.config.includes(2)) {
    const scores = await reliabilityByPortal(tx, { tenantId, portalIds: [portal.id], from: period.from, to: period.to });
    const score = scores.get(portal.id) ?? -1;
    const top = await topOfflineDevices(tx, { ...window, limit: TOP_OFFLINE_LIMIT });
    content.reliability = {
      score,
      goal: settings.goalScore,
      meetsGoal: score >= 0 && score >= settings.goalScore,
      topOfflineDevices: top.filter((d) => d.offlineSeconds > 0),
      // The device-time the score left out (neither online nor offline), so the reader sees why it differs.
      maintenanceSeconds: await maintenanceSeconds(tx, window),
    };
  }
  return content;
}
