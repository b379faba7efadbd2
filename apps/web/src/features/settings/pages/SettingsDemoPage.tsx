import { SimplePage } from '../../../components/SimplePage.tsx';

/** The product's placeholder Settings demo page (settings/new). */
export default function SettingsDemoPage() {
  return <SimplePage title="Settings Demo" text="Nothing to configure here: tenant and profile settings are on the Settings page." />;
}
