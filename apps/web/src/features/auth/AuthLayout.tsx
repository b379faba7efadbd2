import { Card, Flex, Layout, theme } from 'antd';
import { Outlet } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../app/shell/ThemeToggle.tsx';

/** Auth pages: a centred card on the canvas. */
export default function AuthLayout() {
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      <Flex justify="space-between" align="center" style={{ padding: '16px clamp(16px, 4vw, 48px)' }}>
        <Logo />
        <ThemeToggle size="middle" />
      </Flex>
      <Flex justify="center" style={{ padding: '16px 12px 48px' }}>
        <Card style={{ width: '100%', maxWidth: 480 }} styles={{ body: { padding: 'clamp(20px, 4vw, 36px)' } }}>
          <Outlet />
        </Card>
      </Flex>
    </Layout>
  );
}
