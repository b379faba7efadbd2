import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function PortalCasesPage() {
  return <SimplePage title="Portal Cases" text="This portal's cases appear here." />;
}
