import { Button } from 'antd';
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
import { AuthField, AuthFormBody, useAuthForm } from '../AuthForm.tsx';
import { homeOf, tokensReceived } from '../../../lib/session/authSlice.ts';
import { claimsOf } from '../../../lib/jwt.ts';

/**
 * Sign in (docs/web.md "Session"): toast, tokens saved, then the role's home. The form is AuthForm's
 * (antd's Form markup without its code: the sign-in route's budget, docs/web.md "Bundle").
 */
export default function SignInPage() {
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const onFinish = async (values: { email: string; password: string }) => {
    const result = await login({ email: values.email.trim(), password: values.password });
    if (!('data' in result) || !result.data) return; // the error is shown by the session layer
    const { accessToken } = result.data.data;
    dispatch(tokensReceived({ accessToken }));
    notify.success(MSG.loggedIn);
    const claims = claimsOf(accessToken);
    void navigate(homeOf(claims ?? { roles: [], tenantId: -1 }), { replace: true });
  };

  const form = useAuthForm(
    {
      // antd's `required` + `whitespace` on the email, `required` on the password, with the product's messages.
      email: (v) => (v.trim() ? undefined : MSG.email),
      password: (v) => (v ? undefined : MSG.password),
    },
    (values) => void onFinish(values),
  );
  const email = form.field('email');
  const password = form.field('password');

  return (
    <>
      <AuthTitle>Sign in</AuthTitle>
      <AuthFormBody scope={form.scope} onSubmit={form.onSubmit}>
        <AuthField
          id="email"
          label="Email"
          error={email.error}
          scope={form.scope}
          control={(aria) => (
            <Input
              {...aria}
              size="large"
              type="email"
              autoComplete="username"
              status={email.error ? 'error' : undefined}
              value={email.value}
              onChange={(e) => email.onChange(e.target.value)}
            />
          )}
        />
        <AuthField
          id="password"
          label="Password"
          error={password.error}
          scope={form.scope}
          control={(aria) => (
            <Password
              {...aria}
              size="large"
              autoComplete="current-password"
              status={password.error ? 'error' : undefined}
              value={password.value}
              onChange={(e) => password.onChange(e.target.value)}
            />
          )}
        />
        <div style={{ textAlign: 'right', marginTop: -8, marginBottom: 16 }}>
          <Link to="/auth/password-reset">Forgot password</Link>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={isLoading}>
          Sign in
        </Button>
      </AuthFormBody>
      <p style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        No account yet? <AuthLink to="/auth/signup">Sign up</AuthLink>
      </p>
    </>
  );
}
