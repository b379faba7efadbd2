import { Button, Flex, Typography } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { useAuth } from '../../../lib/state/hooks.ts';
import { homeOf } from '../../../lib/session/authSlice.ts';

/** /auth: signed in -> home of the role; otherwise the choice of sign in or sign up. */
export default function AuthIndexPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  if (auth.accessTaken) return <Navigate to={homeOf(auth)} replace />;
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Welcome to Vigil
      </Typography.Title>
      <Typography.Paragraph type="secondary">Sign in to your console, or create an account to set up your company.</Typography.Paragraph>
      <Button type="primary" size="large" onClick={() => navigate('/auth/signin')}>
        Sign in
      </Button>
      <Button size="large" onClick={() => navigate('/auth/signup')}>
        Sign up
      </Button>
    </Flex>
  );
}
