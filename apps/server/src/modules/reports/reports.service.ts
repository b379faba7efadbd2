import type { Report, ReportConfig, ReportContent } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { isSuperAdmin, type Principal } from '../../http/permissions.ts';
import { computeReportContent } from './report-content.ts';
import { formatLocalDate } from './periods.ts';
import * as repo from './reports.repository.ts';

/** The superAdmin reads every tenant's reports; everyone else only their own tenant's. */
export const tenantFilterOf = (p: Principal): repo.TenantFilter => (isSuperAdmin(p) ? undefined : p.tenantId);

export const toReport = (row: repo.ReportRow): Report => ({
  id: row.id,
  customerId: row.customerId,
  customerName: row.customerName,
  period: row.period,
  config: row.config,
  createdAt: row.createdAt.toISOString(),
  tenantName: row.tenantName,
});

export async function listReports(tx: Executor, p: Principal, query: repo.ReportListQuery) {
  const { list, count } = await repo.listReports(tx, tenantFilterOf(p), query);
  return { list: list.map(toReport), count };
}

async function reportOr404(tx: Executor, p: Principal, id: number): Promise<repo.ReportRow> {
  const row = await repo.findReport(tx, tenantFilterOf(p), id);
  if (!row) throw notFound();
  return row;
}

export interface ComputedReport {
  report: Report;
  content: ReportContent;
  tenantName: string;
}

/** A saved report with its content computed now. */
export async function reportWithContent(tx: Executor, p: Principal, id: number, now: Date): Promise<ComputedReport> {
  const row = await reportOr404(tx, p, id);
  const portal = { id: row.customerId, name: row.customerName, tenantId: row.tenantId };
  const content = await computeReportContent(tx, { portal, period: row.period, config: row.config, now });
  return { report: toReport(row), content, tenantName: row.tenantName };
}

async function livePortalOr404(tx: Executor, p: Principal, portalId: number): Promise<repo.PortalRef> {
  const portal = await repo.findLivePortal(tx, tenantFilterOf(p), portalId);
  if (!portal) throw notFound();
  return portal;
}

/** The unsaved preview (the web app's reports/-1). */
export async function previewReport(
  tx: Executor,
  p: Principal,
  config: ReportConfig,
  now: Date,
): Promise<{ content: ReportContent; tenantName: string }> {
  const portal = await livePortalOr404(tx, p, config.customerId);
  const content = await computeReportContent(tx, { portal, period: config.period, config: config.config, now });
  const { name } = await repo.tenantReportSettings(tx, portal.tenantId);
  return { content, tenantName: name };
}

export async function createReport(tx: Executor, p: Principal, pathCustomerId: number, config: ReportConfig, now: Date): Promise<Report> {
  if (config.customerId !== pathCustomerId) throw badRequest('customerId must be the customer of the path');
  const portal = await livePortalOr404(tx, p, pathCustomerId);
  const id = await repo.insertReport(tx, {
    tenantId: portal.tenantId,
    portalId: portal.id,
    period: config.period,
    config: config.config,
    createdBy: p.userId,
    createdAt: now,
  });
  return toReport((await repo.findReport(tx, portal.tenantId, id))!);
}

export async function updateReport(
  tx: Executor,
  p: Principal,
  id: number,
  changes: { period?: number; config?: number[] },
  now: Date,
): Promise<Report> {
  const row = await reportOr404(tx, p, id);
  if (changes.period !== undefined || changes.config !== undefined) await repo.updateReport(tx, row.tenantId, id, changes, now);
  return toReport((await repo.findReport(tx, row.tenantId, id))!);
}

/** `vigil-report-<customer>-<period>-<date>.<ext>`, ASCII only so it fits a quoted header. */
export function exportFileName(content: ReportContent, ext: 'csv' | 'pdf'): string {
  const slug =
    content.portal.name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'customer';
  const period = content.period.label.toLowerCase().replace(/\s+/g, '-');
  return `vigil-report-${slug}-${period}-${formatLocalDate(new Date(content.generatedAt), content.period.timezone)}.${ext}`;
}
