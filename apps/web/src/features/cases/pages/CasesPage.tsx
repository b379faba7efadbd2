import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select } from 'antd';
import { useState } from 'react';
import { CASE_STATUSES } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { CustomerFilterInput } from '../../../components/CustomerFilterInput.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { tenantOnly } from '../../../lib/tenantOnly.ts';
import { useCan } from '../../../lib/session/permissions.ts';
import { useCasesQuery } from '../api.ts';
import { AddCaseDialog } from '../components/AddCaseDialog.tsx';
import { CasesTable } from '../components/CasesTable.tsx';

/** Cases (docs/web-pages.md "Pages"): every case of the tenant; filter by status or customer; Add Case for tenant users. */
export default function CasesPage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const list = useListState({ pageSize: 10, sort: ['createdAt', 'DESC'] });
  const result = useCasesQuery(list.query);
  const [adding, setAdding] = useState(false);
  const canAdd = useCan('cases:write');
  const addButton = canAdd && (
    <Button type="primary" icon={<PlusOutlined />} onClick={tenantOnly(superAdmin, () => setAdding(true))}>
      Add Case
    </Button>
  );
  return (
    <>
      <PageHeader title="Cases" extra={addButton} />
      <Card>
        <Flex gap={12} wrap="wrap" style={{ marginBottom: 16 }}>
          <CustomerFilterInput list={list} style={{ maxWidth: 280 }} />
          <Select
            allowClear
            placeholder="Any status"
            aria-label="Status"
            style={{ minWidth: 180 }}
            value={typeof list.filter.caseType === 'number' ? list.filter.caseType : undefined}
            onChange={(v?: number) => list.setFilter({ ...list.filter, caseType: v })}
            options={CASE_STATUSES.map((label, value) => ({ value, label }))}
          />
        </Flex>
        <CasesTable
          list={list}
          result={result}
          superAdmin={superAdmin}
          emptyText={canAdd ? "No cases yet. Add Case gathers a customer's offline devices." : 'No cases yet.'}
        />
      </Card>
      <AddCaseDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
