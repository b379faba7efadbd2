import { Button, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MSG } from '@vigil/contracts';
import { useAppDispatch, useAuth } from '../../../lib/state/hooks.ts';
import { api } from '../../../lib/api/apiSlice.ts';
import { useAccountDeleteMutation } from '../api.ts';
import { signedOut } from '../../../lib/session/authSlice.ts';

/**
 * Signed in: delete (deactivate) your own account after entering the password.
 * Signed out: the deactivated-account page.
 */
export default function AccountDeletePage() {
  const auth = useAuth();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [remove, { isLoading }] = useAccountDeleteMutation();
  const [doneText, setDoneText] = useState('');

  if (doneText || !auth.accessTaken)
    return (
      <Result
        status="info"
        title={doneText || 'This account is deactivated'}
        subTitle="A deactivated account cannot sign in. If this is a mistake, contact your administrator or our support."
        extra={[
          <Button key="home" onClick={() => navigate('/')}>
            Home
          </Button>,
          <Button key="contact" type="primary" onClick={() => navigate('/contact')}>
            Contact support
          </Button>,
        ]}
      />
    );

  const onFinish = async ({ password }: { password: string }) => {
    const result = await remove({ password });
    if (!('data' in result) || !result.data) return;
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    setDoneText(result.data.data.msg);
  };

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Delete your account
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Your account ({auth.userName}) will be deactivated and signed out everywhere. Enter your password to confirm.
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item label="Password" name="password" rules={[{ required: true, message: MSG.password }]}>
          <Input.Password autoComplete="current-password" size="large" />
        </Form.Item>
        <Button danger type="primary" htmlType="submit" block size="large" loading={isLoading}>
          Delete my account
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to="/dashboards">Back to the console</Link>
      </Typography.Paragraph>
    </>
  );
}
