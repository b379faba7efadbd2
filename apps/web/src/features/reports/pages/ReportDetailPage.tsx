import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function ReportDetailPage() {
  return <SimplePage title="Report" text="The report's figures appear here." />;
}
