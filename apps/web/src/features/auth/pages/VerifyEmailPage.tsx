import { Button, Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/errors.ts';
import { useVerifyEmailMutation } from '../api.ts';

/** Consumes the mailed `?token=` once (the token is single use, so StrictMode's second effect must not resend). */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [verify, state] = useVerifyEmailMutation();
  const sent = useRef(false);
  const navigate = useNavigate();
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void verify({ token });
  }, [token, verify]);

  const signIn = (
    <Button type="primary" onClick={() => navigate('/auth/signin')}>
      Sign in
    </Button>
  );
  if (!token)
    return (
      <Result
        status="warning"
        title="This verification link is incomplete"
        subTitle="Open the link from your email again."
        extra={signIn}
      />
    );
  if (state.isSuccess)
    return (
      <Result
        status="success"
        title={state.data.data.msg}
        subTitle="Your email address is confirmed. You can sign in now."
        extra={signIn}
      />
    );
  if (state.isError) return <Result status="error" title="Verification failed" subTitle={messageOf(state.error)} extra={signIn} />;
  return (
    <div style={{ textAlign: 'center', padding: 32 }}>
      <Spin description="Verifying your email" />
    </div>
  );
}
