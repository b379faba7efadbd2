import { theme } from 'antd';
import { Outlet } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';

/**
 * Auth pages: a centred card on the canvas. The card is drawn here with the Card's tokens rather
 * than antd's Card, which brings Tabs and Menu with it (about 25 KB gzip on the sign-in route), and
 * laid out with plain flex boxes (the sign-in route's JavaScript budget is 250 KB gzip).
 */
export default function AuthLayout() {
  const { token } = theme.useToken();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: token.colorBgLayout }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '16px clamp(16px, 4vw, 48px)' }}>
        <Logo />
        <ThemeToggle size="middle" />
      </div>
      <div style={{ display: 'flex', justifyContent: 'center', padding: '16px 12px 48px' }}>
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
      </div>
    </div>
  );
}
