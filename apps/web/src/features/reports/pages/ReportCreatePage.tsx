import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function ReportCreatePage() {
  return <SimplePage title="Create Report" text="Choose a customer, an interval and the report types." />;
}
