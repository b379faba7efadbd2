import { SimplePage } from '../../../components/SimplePage.tsx';

/** Placeholder registered by web I; replaced by the feature's page. */
export default function AlertsPage() {
  return <SimplePage title="Alerts" text="No alerts to show. Alerts open when devices go offline or licenses near renewal." />;
}
