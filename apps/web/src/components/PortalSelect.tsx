import { Select } from 'antd';
import { useAllPortalsQuery } from '../lib/api/portalOptionsApi.ts';

/** A select of every portal of the tenant (`/customers/all`). */
export function PortalSelect(props: { value?: number; onChange?: (v: number) => void; id?: string }) {
  const { data, isLoading } = useAllPortalsQuery();
  return (
    <Select
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      loading={isLoading}
      placeholder="Select a customer"
      options={(data?.data.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
    />
  );
}
