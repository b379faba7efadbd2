import { reportEndpoints as E, type ReportContent } from '@vigil/contracts';
import type { FastifyReply } from 'fastify';
import { route, type AppModule } from '../../http/route.ts';
import { reportCsv } from './report-csv.ts';
import { reportPdf } from './report-pdf.ts';
import * as service from './reports.service.ts';

/** Sends a download: the body is a file, not JSON (the response schema is `z.any()`). */
async function sendFile(reply: FastifyReply, content: ReportContent, tenantName: string, kind: 'csv' | 'pdf'): Promise<Buffer> {
  const file = kind === 'csv' ? Buffer.from(reportCsv(content, tenantName), 'utf8') : await reportPdf(content, tenantName);
  reply
    .header('content-type', kind === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf')
    .header('content-disposition', `attachment; filename="${service.exportFileName(content, kind)}"`)
    .header('cache-control', 'no-store');
  return file;
}

/** Reports (docs/decisions.md 33): saved configs per customer, computed when read, exported to CSV and PDF. */
export const reportsModule: AppModule = (app, deps) => {
  const now = () => deps.clock.now();

  route(app, deps, E.list, {
    permission: 'read',
    handler: async ({ query, principal, tx }) => ({ data: await tx((t) => service.listReports(t, principal, query)) }),
  });

  route(app, deps, E.get, {
    permission: 'read',
    handler: async ({ params, principal, tx }) => {
      const { report, content } = await tx((t) => service.reportWithContent(t, principal, params.id, now()));
      return { data: { ...report, content } };
    },
  });

  route(app, deps, E.create, {
    permission: 'reports:write',
    handler: async ({ params, body, principal, tx }) => ({
      data: await tx((t) => service.createReport(t, principal, params.id, body, now())),
    }),
  });

  route(app, deps, E.update, {
    permission: 'reports:write',
    handler: async ({ params, body, principal, tx }) => ({
      data: await tx((t) => service.updateReport(t, principal, params.id, body, now())),
    }),
  });

  route(app, deps, E.preview, {
    permission: 'read',
    handler: async ({ body, principal, tx }) => ({ data: (await tx((t) => service.previewReport(t, principal, body, now()))).content }),
  });

  for (const [endpoint, kind] of [
    [E.exportCsv, 'csv'],
    [E.exportPdf, 'pdf'],
  ] as const) {
    route(app, deps, endpoint, {
      permission: 'read',
      // The file is written to the reply here, per caller.
      shareIdenticalReads: false,
      handler: async ({ params, principal, tx, reply }) => {
        const { content, tenantName } = await tx((t) => service.reportWithContent(t, principal, params.id, now()));
        return sendFile(reply, content, tenantName, kind);
      },
    });
  }

  for (const [endpoint, kind] of [
    [E.previewCsv, 'csv'],
    [E.previewPdf, 'pdf'],
  ] as const) {
    route(app, deps, endpoint, {
      permission: 'read',
      shareIdenticalReads: false,
      handler: async ({ query, principal, tx, reply }) => {
        const { content, tenantName } = await tx((t) => service.previewReport(t, principal, query, now()));
        return sendFile(reply, content, tenantName, kind);
      },
    });
  }
};
