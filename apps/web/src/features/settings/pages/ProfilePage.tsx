import { Card } from 'antd';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ProfilePanel } from '../components/ProfilePanel.tsx';

/** /dashboards/profile and /useraccount/profile. */
export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" />
      <Card>
        <ProfilePanel />
      </Card>
    </>
  );
}
