import { pathOf, type ListQueryInput, type ReportConfig, type ResponseOf, type reportEndpoints } from '@vigil/contracts';
import { reportRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';
import { saveBlob } from './download.ts';

type R = typeof reportEndpoints;

/** What to download: a saved report, or the unsaved preview of a config. */
export type ReportFile = { format: 'csv' | 'pdf'; fileName: string } & ({ id: number } | { config: ReportConfig });

function downloadUrl(file: ReportFile): string {
  if ('id' in file) return pathOf((file.format === 'csv' ? reportRoutes.exportCsv : reportRoutes.exportPdf).path, { id: file.id });
  const q = new URLSearchParams({
    customerId: String(file.config.customerId),
    period: String(file.config.period),
    config: JSON.stringify(file.config.config),
  });
  return `${(file.format === 'csv' ? reportRoutes.previewCsv : reportRoutes.previewPdf).path}?${q}`;
}

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    reports: build.query<ResponseOf<R['list']>, ListQueryInput>({
      query: (list) => request(reportRoutes.list, { list }),
      providesTags: ['Report'],
    }),
    report: build.query<ResponseOf<R['get']>, number>({
      query: (id) => request(reportRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Report', id }],
    }),
    /** reports/-1: computed from the config, nothing saved (a POST that reads). */
    reportPreview: build.query<ResponseOf<R['preview']>, ReportConfig>({
      query: (body) => request(reportRoutes.preview, { body }),
    }),
    saveReport: build.mutation<ResponseOf<R['create']>, ReportConfig>({
      query: (body) => request(reportRoutes.create, { params: { id: body.customerId }, body }),
      invalidatesTags: ['Report'],
    }),
    /**
     * An authenticated download through the session base query (bearer token, one refresh
     * on 401): the file is saved from the response handler, so no Blob enters the store.
     */
    downloadReport: build.mutation<null, ReportFile>({
      query: (file) => ({
        url: downloadUrl(file),
        method: 'GET',
        responseHandler: async (response: Response) => {
          if (!response.ok) return (response.json() as Promise<unknown>).catch(() => response.text());
          saveBlob(await response.blob(), file.fileName);
          return null;
        },
      }),
    }),
  }),
});

export const { useReportsQuery, useReportQuery, useReportPreviewQuery, useSaveReportMutation, useDownloadReportMutation } = reportsApi;
