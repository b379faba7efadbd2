import { PlusOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useAuth } from '../../../lib/state/hooks.ts';
import { CustomerFilterInput } from '../../../components/CustomerFilterInput.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { usePortalsQuery } from '../api.ts';
import { AddPortalDialog } from '../components/AddPortalDialog.tsx';
import { PortalsTable } from '../components/PortalsTable.tsx';
import { tenantOnly } from '../../../lib/tenantOnly.ts';
import { useCan } from '../../../lib/session/permissions.ts';

/** Portals (docs/web-pages.md "Pages"): the tenant's customers with device counts and reliability; Add Portal for tenant users. */
export default function PortalsPage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const list = useListState({ pageSize: 10 });
  const result = usePortalsQuery(list.query);
  const [adding, setAdding] = useState(false);
  const canAdd = useCan('portals:write');
  const openAdd = tenantOnly(superAdmin, () => setAdding(true));
  const addButton = canAdd && (
    <Button type="primary" icon={<PlusOutlined />} onClick={openAdd}>
      Add Portal
    </Button>
  );
  return (
    <>
      <PageHeader title="Portals" extra={addButton} />
      <Card>
        <CustomerFilterInput list={list} style={{ marginBottom: 16 }} />
        <PortalsTable
          list={list}
          result={result}
          superAdmin={superAdmin}
          emptyText={canAdd ? 'No portals yet — Add Portal to start monitoring a customer.' : 'No portals yet.'}
          emptyAction={addButton}
        />
      </Card>
      <AddPortalDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
