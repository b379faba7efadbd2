import { Card, Collapse } from 'antd';
import { PageHeader } from '../../../components/PageHeader.tsx';

export default function HelpPage() {
  return (
    <>
      <PageHeader title="Help" />
      <Card>
        <Collapse
          defaultActiveKey={['portal']}
          items={[
            {
              key: 'portal',
              label: 'How do I connect a customer?',
              children:
                'Add a portal with the customer name and the API key of its device cloud. Then point the device cloud at the portal’s webhook URL, signed with its shared secret (Edit Portal shows both).',
            },
            {
              key: 'offline',
              label: 'When is a device offline?',
              children:
                'When its device cloud reports it offline, or when it has not reported for the tenant’s heartbeat timeout (10 minutes by default).',
            },
            {
              key: 'cases',
              label: 'How do cases work?',
              children:
                'A case gathers a portal’s offline devices that are not in an open case yet. Move it through the statuses; Completed releases its devices.',
            },
            {
              key: 'users',
              label: 'How do I add a colleague?',
              children: 'Admins add users on the Users page; the new user receives an email with a link to choose a password.',
            },
          ]}
        />
      </Card>
    </>
  );
}
