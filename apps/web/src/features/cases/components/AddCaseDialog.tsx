import { Form, Modal, Select } from 'antd';
import { MSG } from '@vigil/contracts';
import { useAllPortalsQuery } from '../../portals/api.ts';
import { useCreateCaseMutation } from '../api.ts';
import { useGoToCreatedCase } from '../caseLinks.ts';

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

/**
 * Add New Case (spec §2, §5): choose a portal; the case holds its offline devices not
 * already in an open case. `{data: {error: true, msg}}` shows msg as an error toast.
 */
export function AddCaseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ customerId?: number }>();
  const [create, { isLoading }] = useCreateCaseMutation();
  const goToCreatedCase = useGoToCreatedCase();
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return; // the messages show under the fields
    const { customerId } = values;
    if (goToCreatedCase(await create(customerId!))) onClose();
  };
  return (
    <Modal title="Add New Case" open={open} onCancel={onClose} onOk={submit} okText="Add Case" confirmLoading={isLoading} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item label="Customer" name="customerId" rules={[{ required: true, message: MSG.selectCustomerForCase }]}>
          <PortalSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
