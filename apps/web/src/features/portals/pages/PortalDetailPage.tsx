import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function PortalDetailPage() {
  return <SimplePage title="Portal" text="This portal's devices, cases and licenses appear here." />;
}
