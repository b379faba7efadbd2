import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function PortalsPage() {
  return <SimplePage title="Portals" text="No portals to show yet. Add a portal to connect a customer's devices." />;
}
