import { Button, Form } from 'antd';
// Input and Password from their own modules: the Input barrel attaches TextArea, Search and OTP
// (about 10 KB gzip) that the sign-in route never shows.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { Link, useNavigate } from 'react-router';
import { MSG } from '@vigil/contracts';
import { useAppDispatch } from '../../../lib/state/hooks.ts';
import { notify } from '../../../lib/notify.ts';
import { useLoginMutation } from '../api.ts';
import { AuthLink, AuthTitle } from '../AuthTitle.tsx';
import { homeOf, tokensReceived } from '../../../lib/session/authSlice.ts';
import { claimsOf } from '../../../lib/jwt.ts';

interface SignInForm {
  email: string;
  password: string;
}

/** Sign in (docs/web.md "Session"): toast, tokens saved, then the role's home. */
export default function SignInPage() {
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const onFinish = async (values: SignInForm) => {
    const result = await login({ email: values.email.trim(), password: values.password });
    if (!('data' in result) || !result.data) return; // the error is shown by the session layer
    const { accessToken } = result.data.data;
    dispatch(tokensReceived({ accessToken }));
    notify.success(MSG.loggedIn);
    const claims = claimsOf(accessToken);
    void navigate(homeOf(claims ?? { roles: [], tenantId: -1 }), { replace: true });
  };

  return (
    <>
      <AuthTitle>Sign in</AuthTitle>
      <Form<SignInForm> layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
        <Form.Item label="Email" name="email" rules={[{ required: true, whitespace: true, message: MSG.email }]}>
          <Input type="email" autoComplete="username" />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[{ required: true, message: MSG.password }]}>
          <Password autoComplete="current-password" />
        </Form.Item>
        <div style={{ textAlign: 'right', marginTop: -8, marginBottom: 16 }}>
          <Link to="/auth/password-reset">Forgot password</Link>
        </div>
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          Sign in
        </Button>
      </Form>
      <p style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        No account yet? <AuthLink to="/auth/signup">Sign up</AuthLink>
      </p>
    </>
  );
}
