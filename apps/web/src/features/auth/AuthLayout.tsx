import { Flex, Layout, theme } from 'antd';
import { Outlet } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../app/shell/ThemeToggle.tsx';

/**
 * Auth pages: a centred card on the canvas. The card is drawn here with the Card's tokens rather
 * than antd's Card, which brings Tabs and Menu with it (about 25 KB gzip on the sign-in route).
 */
export default function AuthLayout() {
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      <Flex justify="space-between" align="center" style={{ padding: '16px clamp(16px, 4vw, 48px)' }}>
        <Logo />
        <ThemeToggle size="middle" />
      </Flex>
      <Flex justify="center" style={{ padding: '16px 12px 48px' }}>
        <div
          style={{
            width: '100%',
            maxWidth: 480,
            boxSizing: 'border-box',
            padding: 'clamp(20px, 4vw, 36px)',
            background: token.colorBgContainer,
            border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
          }}
        >
          <Outlet />
        </div>
      </Flex>
    </Layout>
  );
}
