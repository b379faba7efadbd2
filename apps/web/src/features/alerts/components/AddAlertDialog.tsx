import { Form, Modal, Select } from 'antd';
import { ALERT_TYPES, MSG } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { PortalSelect } from '../../../components/PortalSelect.tsx';
import { useCreateAlertMutation } from '../api.ts';

/**
 * Add Alert (docs/web-pages.md "Pages", docs/product.md "Validation"): Select Type and Select Customer; success
 * 'N devices are added to Alert.' (N: all the portal's open alert holds). A portal with no offline device
 * answers 422 'This portal has no offline devices.': its message shows (the API's error toast), the dialog
 * stays open and nothing is created (docs/alerts.md).
 */
export function AddAlertDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ alertType?: number; customerId?: number }>();
  const [create, { isLoading }] = useCreateAlertMutation();
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages show under the fields
    const result = await create({ alertType: v.alertType!, customerId: v.customerId! });
    if (!('data' in result) || !result.data) return; // refused: the error toast says why
    notify.success(MSG.devicesAddedToAlert(result.data.data.offlineCount));
    onClose();
  };
  return (
    <Modal title="Add Alert" open={open} onCancel={onClose} onOk={submit} okText="Add Alert" confirmLoading={isLoading} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item label="Select Type" name="alertType" rules={[{ required: true, message: MSG.selectAlertType }]}>
          <Select placeholder="Select an alert type" options={ALERT_TYPES.map((label, value) => ({ value, label }))} />
        </Form.Item>
        <Form.Item label="Select Customer" name="customerId" rules={[{ required: true, message: MSG.selectCustomerForAlert }]}>
          <PortalSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
