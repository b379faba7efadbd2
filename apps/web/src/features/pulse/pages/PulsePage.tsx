import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function PulsePage() {
  return <SimplePage title="Pulse" text="The Pulse dashboard shows device counts, online share and reliability once portals report." />;
}
