import { Select } from 'antd';
import { useAllTenantsQuery } from '../../tenants/index.ts';

/** Tenant choice of the superAdmin's user forms, from GET /v0/api/tenants/all. */
export function TenantSelect(props: { value?: number | null; onChange?: (id: number) => void; id?: string }) {
  const { data, isLoading } = useAllTenantsQuery();
  return (
    <Select
      {...props}
      value={props.value ?? undefined}
      showSearch={{ optionFilterProp: 'label' }}
      loading={isLoading}
      placeholder="Select a tenant"
      options={(data?.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
    />
  );
}
