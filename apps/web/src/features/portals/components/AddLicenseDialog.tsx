import { DatePicker, Form, InputNumber, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { DEVICE_TYPES, LICENSE_TERMS, MSG } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { useCreateLicenseMutation } from '../api.ts';

interface LicenseForm {
  deviceType?: number;
  terms?: number;
  deviceCount?: number | null;
  startDate?: Dayjs | null;
}

/** Device Count rule (docs/decisions.md 38): a validation rule with the product's message, never a silent clamp. */
export const deviceCountRule = {
  validator: (_: unknown, value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Promise.resolve() : Promise.reject(new Error(MSG.deviceCount)),
};

/** Add New License (docs/web-pages.md "Pages", docs/product.md "Validation"): Device Type, Terms (1Y..10Y), Device Count (default 1), Start date. */
export function AddLicenseDialog({ portal, open, onClose }: { portal: { id: number; name: string }; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<LicenseForm>();
  const [create, { isLoading }] = useCreateLicenseMutation();

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages show under the fields
    const result = await create({
      id: portal.id,
      body: {
        deviceType: v.deviceType!,
        terms: v.terms!,
        deviceCount: v.deviceCount!,
        startDate: v.startDate!.format('YYYY-MM-DD'),
        customerId: portal.id,
        customerName: portal.name,
      },
    });
    if (!('data' in result) || !result.data) return;
    notify.success('License added.');
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      title="Add New License"
      open={open}
      onCancel={onClose}
      onOk={submit}
      okText="Add License"
      confirmLoading={isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false} initialValues={{ deviceCount: 1 }}>
        <Form.Item label="Device Type" name="deviceType" rules={[{ required: true, message: MSG.deviceType }]}>
          <Select placeholder="Select a device type" options={DEVICE_TYPES.map((label, value) => ({ value, label }))} />
        </Form.Item>
        <Form.Item label="Terms" name="terms" rules={[{ required: true, message: MSG.terms }]}>
          <Select placeholder="Select terms" options={LICENSE_TERMS.map((t) => ({ value: t, label: `${t}Y` }))} />
        </Form.Item>
        <Form.Item label="Device Count" name="deviceCount" rules={[deviceCountRule]}>
          <InputNumber style={{ width: '100%' }} precision={0} />
        </Form.Item>
        <Form.Item label="Start date" name="startDate" rules={[{ required: true, message: MSG.startDate }]}>
          <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
