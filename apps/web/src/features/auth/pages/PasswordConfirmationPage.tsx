import { Button, Form, Input, Result, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { MSG } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { usePasswordConfirmationMutation } from '../api.ts';

interface NewPasswordForm {
  newPassword: string;
  confirmPassword: string;
}

/** Choose a password from a mailed link (`?token=`): invitations and resets (docs/decisions.md 21). */
export default function PasswordConfirmationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [confirm, { isLoading }] = usePasswordConfirmationMutation();
  const navigate = useNavigate();

  if (!token)
    return (
      <Result
        status="warning"
        title="This link is incomplete"
        subTitle="Open the link from your email again, or request a new one."
        extra={<Button onClick={() => navigate('/auth/password-reset')}>Request a new link</Button>}
      />
    );

  const onFinish = async (v: NewPasswordForm) => {
    const result = await confirm({ token, newPassword: v.newPassword, confirmPassword: v.confirmPassword });
    if (!('data' in result) || !result.data) return;
    notify.success(result.data.data.msg || MSG.passwordUpdated);
    void navigate('/auth/signin', { replace: true });
  };

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Choose your password
      </Typography.Title>
      <Form<NewPasswordForm> layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          label="New password"
          name="newPassword"
          rules={[{ required: true, message: MSG.password }]}
          extra="At least 8 characters."
        >
          <Input.Password autoComplete="new-password" size="large" />
        </Form.Item>
        <Form.Item
          label="Confirm password"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: MSG.confirmPassword },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(MSG.passwordsMatch)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={isLoading}>
          Save password
        </Button>
      </Form>
    </>
  );
}
