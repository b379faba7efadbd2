import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function ReportsPage() {
  return <SimplePage title="Reports" text="No reports to show yet. Create a report for a customer." />;
}
