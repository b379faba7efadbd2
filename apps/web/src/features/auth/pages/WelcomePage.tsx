import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** After sign-up: what happens next. */
export default function WelcomePage() {
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title="Welcome to Vigil"
      subTitle="We sent you an email to confirm your address. Then sign in, fill in your company details and start your one-month free trial."
      extra={
        <Button type="primary" onClick={() => navigate('/auth/signin')}>
          Sign in
        </Button>
      }
    />
  );
}
