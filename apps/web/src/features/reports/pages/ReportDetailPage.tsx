import { skipToken } from '@reduxjs/toolkit/query';
import { FilePdfOutlined, FileTextOutlined, PrinterOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ReportConfig, ReportContent } from '@vigil/contracts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ErrorState } from '../../../components/TableStates.tsx';
import { notify } from '../../../lib/notify.ts';
import { useDownloadReportMutation, useReportPreviewQuery, useReportQuery, useSaveReportMutation, type ReportFile } from '../api.ts';
import { reportFileName } from '../download.ts';
import '../report-print.css';

const ReportView = lazy(() => import('../components/ReportView.tsx'));

/** What reports/create hands to reports/-1 (navigation state, so it survives a reload). */
export interface PreviewState extends ReportConfig {
  customerName: string;
}

const PREVIEW_ID = -1;

/**
 * A report: a saved one (reports/{id}) or the unsaved preview of a configuration
 * (reports/-1), which can be saved. Download CSV / PDF are authenticated downloads.
 */
export default function ReportDetailPage() {
  const id = Number(useParams().id);
  const preview = id === PREVIEW_ID;
  const location = useLocation();
  const config = preview ? (location.state as PreviewState | null) : null;
  const saved = useReportQuery(id, { skip: preview });
  const previewed = useReportPreviewQuery(
    config ? { customerId: config.customerId, period: config.period, config: config.config } : skipToken,
  );
  const result = preview ? previewed : saved;
  const content: ReportContent | undefined = preview ? previewed.data?.data : saved.data?.data.content;
  const [save, saving] = useSaveReportMutation();
  const [download, downloading] = useDownloadReportMutation();
  const navigate = useNavigate();

  if (preview && !config)
    return (
      <>
        <PageHeader title="Report" />
        <Result
          status="info"
          title="Nothing to preview"
          subTitle="Choose a customer, an interval and report types first."
          extra={<Link to="/dashboards/reports/create">Create Report</Link>}
        />
      </>
    );

  const title = content ? `${content.portal.name} — ${content.period.label}` : (config?.customerName ?? 'Report');
  const date = content?.generatedAt.slice(0, 10) ?? '';
  const file = (format: 'csv' | 'pdf'): ReportFile => {
    const fileName = reportFileName(content?.portal.name ?? 'report', content?.period.label ?? '', date, format);
    return preview
      ? { format, fileName, config: { customerId: config!.customerId, period: config!.period, config: config!.config } }
      : { format, fileName, id };
  };
  const saveReport = async () => {
    const r = await save({ customerId: config!.customerId, period: config!.period, config: config!.config });
    if ('data' in r && r.data) {
      notify.success('Report saved.');
      void navigate(`/dashboards/reports/${r.data.data.id}`, { replace: true });
    }
  };

  return (
    <>
      <PageHeader
        title={title}
        lastCrumb={preview ? 'Preview' : `Report #${id}`}
        extra={
          content && (
            <span className="vigil-no-print" style={{ display: 'inline-flex', gap: 8, flexWrap: 'wrap' }}>
              {preview && (
                <Button type="primary" icon={<SaveOutlined />} loading={saving.isLoading} onClick={saveReport}>
                  Save Report
                </Button>
              )}
              <Button
                icon={<FileTextOutlined />}
                loading={downloading.isLoading && downloading.originalArgs?.format === 'csv'}
                onClick={() => download(file('csv'))}
              >
                Download CSV
              </Button>
              <Button
                icon={<FilePdfOutlined />}
                loading={downloading.isLoading && downloading.originalArgs?.format === 'pdf'}
                onClick={() => download(file('pdf'))}
              >
                Download PDF
              </Button>
              <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
                Print
              </Button>
            </span>
          )
        }
      />
      {result.error ? (
        'status' in result.error && result.error.status === 404 ? (
          <Result status="404" title="Report not found" extra={<Link to="/dashboards/reports">Back to Reports</Link>} />
        ) : (
          <ErrorState error={result.error} onRetry={result.refetch} />
        )
      ) : !content ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
          <ReportView content={content} />
        </Suspense>
      )}
    </>
  );
}
