import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf } from './envelope.ts';
import { listQuery, qFilter } from './list-query.ts';
import { REPORT_PERIODS, REPORT_TYPES } from './enums.ts';

const TAG = 'reports';

/** Period code 0..3: This Week, This Month, This Quarter, This Year (docs/web-pages.md "Pages"). */
export const reportPeriod = z
  .number({ error: 'must be a number 0..3' })
  .int('must be a number 0..3')
  .min(0, 'must be a number 0..3')
  .max(REPORT_PERIODS.length - 1, 'must be a number 0..3');

/** Report types 0..2 (Open Cases, Portal Pulse, Reliability Score); at least one, no repeats. */
export const reportConfigList = z
  .array(
    z
      .number({ error: 'must list report types 0..2' })
      .int('must list report types 0..2')
      .min(0, 'must list report types 0..2')
      .max(REPORT_TYPES.length - 1, 'must list report types 0..2'),
    { error: 'must list report types 0..2' },
  )
  .min(1, 'choose at least one report type')
  .max(REPORT_TYPES.length)
  .transform((list) => [...new Set(list)].sort((a, b) => a - b));

const customerIdField = z
  .number({ error: 'select a customer' })
  .int('select a customer')
  .positive('select a customer')
  .max(2147483647, 'select a customer');

/** Report config (docs/product.md "Records"): what the creation form sends. */
export const reportConfigBody = z.strictObject({
  customerId: customerIdField,
  period: reportPeriod,
  config: reportConfigList,
});
export type ReportConfig = z.output<typeof reportConfigBody>;

export const reportPatchBody = z.strictObject({
  period: reportPeriod.optional(),
  config: reportConfigList.optional(),
});

/** A saved report (docs/product.md "Records"). */
export const report = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  period: z.number().int(),
  config: z.array(z.number().int()),
  createdAt: isoDateTime,
  tenantName: z.string(),
});
export type Report = z.infer<typeof report>;

export const caseStatusCount = z.object({ caseType: z.number().int(), status: z.string(), count: z.number().int() });

/** Section 0: cases by status over the period. */
export const openCasesSection = z.object({
  /** Cases open at some time during the period, by their status at the period's end (or now). */
  byStatus: z.array(caseStatusCount),
  /** Cases not completed at the end of the period (or now). */
  openAtEnd: z.number().int(),
  openedInPeriod: z.number().int(),
  completedInPeriod: z.number().int(),
});

export const dailyShare = z.object({
  /** YYYY-MM-DD in the tenant's time zone. */
  date: z.string(),
  /** Online device-seconds / observed device-seconds x 100 on that day, one decimal; -1 when nothing observed. */
  onlineShare: z.number(),
});

/** Section 1: the portal's pulse. */
export const portalPulseSection = z.object({
  onlineCount: z.number().int(),
  offlineCount: z.number().int(),
  daily: z.array(dailyShare),
});

export const offlineDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  deviceType: z.number().int(),
  offlineSeconds: z.number(),
});

/** Section 2: reliability against the tenant's goal. */
export const reliabilitySection = z.object({
  /** -1 when nothing was observed in the period. */
  score: z.number(),
  goal: z.number(),
  meetsGoal: z.boolean(),
  topOfflineDevices: z.array(offlineDevice),
  /**
   * Device-seconds of the period that maintenance windows excluded from the score (docs/maintenance.md):
   * neither online nor offline. 0 when no window covered the portal's devices.
   */
  maintenanceSeconds: z.number(),
});

export const reportContent = z.object({
  portal: z.object({ id: z.number().int(), name: z.string() }),
  period: z.object({ code: z.number().int(), label: z.string(), from: isoDateTime, to: isoDateTime, timezone: z.string() }),
  generatedAt: isoDateTime,
  config: z.array(z.number().int()),
  openCases: openCasesSection.optional(),
  portalPulse: portalPulseSection.optional(),
  reliability: reliabilitySection.optional(),
});
export type ReportContent = z.infer<typeof reportContent>;

export const reportWithContent = report.extend({ content: reportContent });

const reportListQuery = listQuery({
  sort: ['customerName', 'period', 'createdAt', 'tenantName', 'id'],
  filter: { q: qFilter, customerId: z.number().int().positive().max(2147483647).optional(), period: reportPeriod.optional() },
});

/** Query of a preview download: the config as plain parameters (`config=[0,1,2]` as JSON). */
export const reportPreviewQuery = z.strictObject({
  customerId: z.coerce.number({ error: 'select a customer' }).int().positive('select a customer').max(2147483647),
  period: z.coerce.number({ error: 'must be a number 0..3' }).pipe(reportPeriod),
  config: z
    .string({ error: 'must list report types 0..2' })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must list report types 0..2' });
        return z.NEVER;
      }
    })
    .pipe(reportConfigList),
});

/** Downloads answer a file (text/csv or application/pdf), not JSON. */
const fileResponse = z.any().describe('file download');

export const reportEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/reports',
    tag: TAG,
    summary: 'List reports',
    query: reportListQuery,
    response: listOf(report),
  }),
  preview: endpoint({
    method: 'POST',
    path: '/v0/api/reports/preview',
    tag: TAG,
    summary: 'Compute a report from a config without saving it (reports/-1)',
    body: reportConfigBody,
    response: dataOf(reportContent),
  }),
  previewCsv: endpoint({
    method: 'GET',
    path: '/v0/api/reports/preview/export.csv',
    tag: TAG,
    summary: 'Download an unsaved report as CSV',
    query: reportPreviewQuery,
    response: fileResponse,
  }),
  previewPdf: endpoint({
    method: 'GET',
    path: '/v0/api/reports/preview/export.pdf',
    tag: TAG,
    summary: 'Download an unsaved report as PDF',
    query: reportPreviewQuery,
    response: fileResponse,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/reports/:id',
    tag: TAG,
    summary: 'A report with its computed content',
    params: idParams,
    response: dataOf(reportWithContent),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/reports/:id',
    tag: TAG,
    summary: 'Change a report period or types',
    params: idParams,
    body: reportPatchBody,
    response: dataOf(report),
  }),
  exportCsv: endpoint({
    method: 'GET',
    path: '/v0/api/reports/:id/export.csv',
    tag: TAG,
    summary: 'Download a report as CSV',
    params: idParams,
    response: fileResponse,
  }),
  exportPdf: endpoint({
    method: 'GET',
    path: '/v0/api/reports/:id/export.pdf',
    tag: TAG,
    summary: 'Download a report as PDF',
    params: idParams,
    response: fileResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/customers/:id/reports',
    tag: TAG,
    summary: 'Save a report for a customer',
    params: idParams,
    body: reportConfigBody,
    response: dataOf(report),
    status: 201,
  }),
};
