import { Button, Form, Input, Result, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MSG } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { usePasswordResetMutation } from '../api.ts';

export const RESET_REDIRECT_MS = 5000;

/** Password reset (docs/web.md "Pages of web I"): success toast, then home after 5 seconds. */
export default function PasswordResetPage() {
  const [reset, { isLoading }] = usePasswordResetMutation();
  const [sent, setSent] = useState(false);
  const navigate = useNavigate();
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => void navigate('/'), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  const onFinish = async ({ email }: { email: string }) => {
    const result = await reset({ email: email.trim() });
    if (!('data' in result) || !result.data) return;
    notify.success(result.data.data.msg);
    setSent(true);
  };

  if (sent)
    return (
      <Result
        status="success"
        title="Check your email"
        subTitle="If an account exists for this email, a reset link is on its way. Taking you home in 5 seconds."
      />
    );
  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Reset your password
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Enter the email of your account and we will send you a link to choose a new password.
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item label="Email" name="email" rules={[{ required: true, whitespace: true, message: MSG.email }]}>
          <Input type="email" autoComplete="email" size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={isLoading}>
          Send reset link
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to="/auth/signin">Back to sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
