import { Form, Input, Modal } from 'antd';
import { MSG } from '@vigil/contracts';
import { useAppDispatch } from '../../../lib/state/hooks.ts';
import { validated } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useChangePasswordMutation } from '../api.ts';
import { tokensReceived } from '../../../lib/session/authSlice.ts';

interface ChangePasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Change Password (docs/product.md "Validation"): current, new and confirm must be filled (nothing is
 * sent otherwise); confirm must match ('Passwords do not match.'). The server ends
 * other sessions and returns fresh tokens, which replace ours.
 */
export function ChangePasswordDialog({ open, onClose, email }: { open: boolean; onClose: () => void; email: string }) {
  const [form] = Form.useForm<ChangePasswordForm>();
  const [change, { isLoading }] = useChangePasswordMutation();
  const dispatch = useAppDispatch();
  const required = [{ required: true, whitespace: true, message: MSG.required }];

  const submit = async () => {
    const v = await validated(form);
    if (!v) return; // the messages show under the fields
    const result = await change({ email, ...v });
    if (!('data' in result) || !result.data) return;
    dispatch(tokensReceived({ accessToken: result.data.data.accessToken }));
    notify.success(MSG.passwordUpdated);
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      title="Change Password"
      open={open}
      onCancel={onClose}
      onOk={submit}
      okText="Change Password"
      confirmLoading={isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item label="Current Password" name="currentPassword" rules={required}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="New Password" name="newPassword" rules={required} extra="At least 8 characters.">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm Password"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[
            ...required,
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(MSG.passwordsMatch)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
