import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function AlertDetailPage() {
  return <SimplePage title="Alert" text="The alert's devices appear here." />;
}
