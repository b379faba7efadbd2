import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function CasesPage() {
  return <SimplePage title="Cases" text="No cases to show yet. Open a case from a portal with offline devices." />;
}
