import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function CaseDetailPage() {
  return <SimplePage title="Case" text="This case's devices and comments appear here." />;
}
