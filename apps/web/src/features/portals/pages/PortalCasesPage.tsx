import { Card } from 'antd';
import { useLocation, useParams } from 'react-router';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { AccessCommandButton, CasesTable } from '../../cases/index.ts';
import { usePortalCasesQuery, usePortalQuery } from '../api.ts';

/** A portal's cases (docs/web-pages.md "Pages"): breadcrumbs, the cases table (8), Access Command. */
export default function PortalCasesPage() {
  const id = Number(useParams().id);
  const location = useLocation();
  const auth = useAuth();
  const portal = usePortalQuery(id);
  const name = portal.data?.data.name ?? (location.state as { customerName?: string } | null)?.customerName ?? 'Portal';
  const list = useListState({ pageSize: 8, sort: ['createdAt', 'DESC'] });
  const result = usePortalCasesQuery({ id, list: list.query });
  return (
    <>
      <PageHeader title={`${name} — Cases`} lastCrumb={`${name} Cases`} extra={<AccessCommandButton />} />
      <Card>
        <CasesTable
          list={list}
          result={result}
          superAdmin={isSuperAdmin(auth)}
          emptyText="No cases for this customer yet. Open one from the portal's offline devices."
        />
      </Card>
    </>
  );
}
