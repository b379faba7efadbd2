import { Form, Input, Modal, Select } from 'antd';
import { MSG, SELECTABLE_ROLES, type CreateUserBody } from '@vigil/contracts';
import { validated } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useCreateUserMutation } from '../api.ts';
import { TenantSelect } from './TenantSelect.tsx';

interface AddUserForm {
  tenantId?: number;
  name: string;
  email: string;
  phone: string;
  roles: CreateUserBody['roles'];
}

/** Add New User (docs/web.md "Pages of web I", docs/product.md "Validation"): the new user gets an invitation email to choose a password. */
export function AddUserDialog({ open, onClose, superAdmin }: { open: boolean; onClose: () => void; superAdmin: boolean }) {
  const [form] = Form.useForm<AddUserForm>();
  const [create, { isLoading }] = useCreateUserMutation();
  const required = (message: string) => [{ required: true, whitespace: true, message }];

  const submit = async () => {
    const v = await validated(form);
    if (!v) return; // the messages show under the fields
    const body: CreateUserBody = { name: v.name.trim(), email: v.email.trim(), phone: v.phone.trim(), roles: v.roles };
    if (superAdmin) body.tenantId = v.tenantId;
    const result = await create(body);
    if (!('data' in result) || !result.data) return;
    notify.success(`Invitation sent to ${result.data.data.email}.`);
    form.resetFields();
    onClose();
  };

  return (
    <Modal title="Add New User" open={open} onCancel={onClose} onOk={submit} okText="Add User" confirmLoading={isLoading} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        {superAdmin && (
          <Form.Item label="Tenant" name="tenantId" rules={[{ required: true, message: MSG.selectTenant }]}>
            <TenantSelect />
          </Form.Item>
        )}
        <Form.Item label="Full Name" name="name" rules={required(MSG.fullName)}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={required(MSG.email)}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item label="Phone Number" name="phone" rules={required(MSG.phone)}>
          <Input type="tel" autoComplete="off" />
        </Form.Item>
        <Form.Item label="Role" name="roles" rules={[{ required: true, type: 'array', min: 1, message: MSG.roles }]}>
          <Select mode="multiple" placeholder="Select roles" options={SELECTABLE_ROLES.map((r) => ({ value: r, label: r }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
