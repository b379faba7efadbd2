import {
  EyeInvisibleOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MenuOutlined,
  SearchOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Flex, Layout, Tooltip, theme } from 'antd';
import { useNavigate } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { HEADER_HEIGHT } from '../../lib/theme.ts';
import { AlarmsDropdown } from './AlarmsDropdown.tsx';
import { PortalSearch } from '../../features/search/components/PortalSearch.tsx';
import { FullScreenToggle } from './FullScreenToggle.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { UserMenu } from './UserMenu.tsx';
import { useAuth } from '../../lib/state/hooks.ts';
import { needsTenant } from '../../lib/session/permissions.ts';

interface WideProps {
  collapsed: boolean;
  hidden: boolean;
  onToggleCollapsed: () => void;
  onToggleHidden: () => void;
}

/** Sticky 100 px header of wide screens (docs/web.md "Shell"). */
export function WideHeader({ collapsed, hidden, onToggleCollapsed, onToggleHidden }: WideProps) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  // No tenant yet: nothing to search or be alarmed about; the header leaves only Settings and the account.
  const firstRun = needsTenant(useAuth());
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 100,
        height: HEADER_HEIGHT,
        lineHeight: 'normal',
        padding: '0 24px',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        display: 'flex',
        alignItems: 'center',
        gap: 12,
      }}
    >
      {hidden ? (
        <Button size="large" icon={<MenuOutlined />} onClick={onToggleHidden} aria-label="Show navigation" />
      ) : (
        <>
          <Tooltip title={collapsed ? 'Expand navigation' : 'Collapse navigation'}>
            <Button
              size="large"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={onToggleCollapsed}
              aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            />
          </Tooltip>
          <Tooltip title="Hide navigation">
            <Button size="large" icon={<EyeInvisibleOutlined />} onClick={onToggleHidden} aria-label="Hide navigation" />
          </Tooltip>
        </>
      )}
      {!firstRun && <PortalSearch />}
      <Flex gap={8} align="center" style={{ marginInlineStart: 'auto' }}>
        <FullScreenToggle />
        <Button size="large" icon={<SettingOutlined />} onClick={() => navigate('/dashboards/settings')}>
          Setting
        </Button>
        {!firstRun && <AlarmsDropdown />}
        <ThemeToggle />
        <UserMenu />
      </Flex>
    </Layout.Header>
  );
}

/** The narrow screens' bar: opens the navigation drawer (the 100 px header is for wide screens only). */
export function NarrowHeader({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const firstRun = needsTenant(useAuth());
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 100,
        height: 60,
        lineHeight: 'normal',
        padding: '0 12px',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
      }}
    >
      <Button icon={<MenuOutlined />} onClick={onOpenMenu} aria-label="Open navigation" />
      <Logo />
      <Flex gap={4} align="center" style={{ marginInlineStart: 'auto' }}>
        {!firstRun && <Button icon={<SearchOutlined />} aria-label="Search customers" onClick={() => navigate('/dashboards/search')} />}
        <Button icon={<SettingOutlined />} aria-label="Setting" onClick={() => navigate('/dashboards/settings')} />
        <ThemeToggle size="middle" />
        <UserMenu compact />
      </Flex>
    </Layout.Header>
  );
}
