import { Form, Modal } from 'antd';
import { MSG } from '@vigil/contracts';
import { PortalSelect } from '../../../components/PortalSelect.tsx';
import { useCreateCaseMutation } from '../api.ts';
import { useGoToCreatedCase } from '../caseCreation.ts';

/**
 * Add New Case (docs/web-pages.md "Pages", docs/product.md "Validation"): choose a portal; the case holds its offline devices not
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
