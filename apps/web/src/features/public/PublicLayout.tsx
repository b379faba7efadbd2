import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Layout, Menu, Typography, theme } from 'antd';
import { useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { NARROW_QUERY } from '../../lib/theme.ts';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
// antd's whole stylesheet: the entry loads only the auth pages' part (main.tsx). The rules repeated
// from that part come again in this sheet's order, so the cascade is the whole sheet's.
import 'antd/dist/antd.css';

const LINKS = [
  { key: '/why-us', label: 'Why Vigil' },
  { key: '/pricing', label: 'Pricing' },
  { key: '/about', label: 'About' },
  { key: '/contact', label: 'Contact' },
];

/** The product site's frame: top bar (a 'Menu' drawer when narrow), page, footer. */
export default function PublicLayout() {
  const narrow = useMediaQuery(NARROW_QUERY);
  const [menuOpen, setMenuOpen] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh', background: token.colorBgContainer }}>
      <Layout.Header
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 10,
          height: 72,
          lineHeight: 'normal',
          display: 'flex',
          alignItems: 'center',
          gap: 16,
          padding: narrow ? '0 16px' : '0 48px',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Logo />
        {!narrow && (
          <Menu
            mode="horizontal"
            selectedKeys={[pathname]}
            items={LINKS}
            onClick={({ key }) => navigate(key)}
            style={{ flex: 1, borderBottom: 0, justifyContent: 'center', minWidth: 0, fontSize: 15 }}
          />
        )}
        <Flex gap={8} align="center" style={{ marginInlineStart: 'auto' }}>
          <ThemeToggle size="middle" />
          {narrow ? (
            <Button icon={<MenuOutlined />} onClick={() => setMenuOpen(true)}>
              Menu
            </Button>
          ) : (
            <>
              <Button onClick={() => navigate('/auth/signin')}>Sign in</Button>
              <Button type="primary" onClick={() => navigate('/auth/signup')}>
                Start free trial
              </Button>
            </>
          )}
        </Flex>
      </Layout.Header>
      <Drawer title="Menu" open={menuOpen} onClose={() => setMenuOpen(false)} placement="right" size="80vw">
        <Menu
          mode="inline"
          selectedKeys={[pathname]}
          items={[
            ...LINKS,
            { key: '/dashboards/pulse', label: 'Live Preview' },
            { key: '/auth/signin', label: 'Sign in' },
            { key: '/auth/signup', label: 'Sign up' },
          ]}
          onClick={({ key }) => {
            setMenuOpen(false);
            void navigate(key);
          }}
          style={{ borderInlineEnd: 0 }}
        />
      </Drawer>
      <Layout.Content>
        <Outlet />
      </Layout.Content>
      <Layout.Footer style={{ background: token.colorFillQuaternary, padding: narrow ? '32px 16px' : '40px 48px' }}>
        <Flex justify="space-between" wrap="wrap" gap={24}>
          <div style={{ maxWidth: 360 }}>
            <Logo />
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              The operations console for companies that install and service cameras, intercoms, access control, alarms and environmental
              sensors.
            </Typography.Paragraph>
          </div>
          <Flex gap={48} wrap="wrap">
            <Flex vertical gap={6}>
              <Typography.Text strong>Product</Typography.Text>
              <Link to="/why-us">Why Vigil</Link>
              <Link to="/pricing">Pricing</Link>
              <Link to="/auth/signin">Sign in</Link>
            </Flex>
            <Flex vertical gap={6}>
              <Typography.Text strong>Company</Typography.Text>
              <Link to="/about">About</Link>
              <Link to="/contact">Contact</Link>
            </Flex>
          </Flex>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: 24, marginBottom: 0 }}>
          © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
        </Typography.Paragraph>
      </Layout.Footer>
    </Layout>
  );
}
