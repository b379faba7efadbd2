import { Menu } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { useAuth } from '../../lib/state/hooks.ts';
import { navItemsFor, selectedKeyOf } from './navItems.tsx';

/** Logo and the role's menu; used in the Sider (wide) and in the Drawer (narrow). */
export function SideNav({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const { roles, tenantId } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main">
      <div
        style={{
          height: 72,
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'flex-start',
          padding: collapsed ? 0 : '0 24px',
        }}
      >
        <Logo collapsed={collapsed} light />
      </div>
      <Menu
        theme="dark"
        mode="inline"
        selectedKeys={[selectedKeyOf(pathname)]}
        items={navItemsFor(roles, tenantId).map((i) => ({ key: i.key, label: i.label, icon: i.icon }))}
        onClick={({ key }) => {
          void navigate(key);
          onNavigate?.();
        }}
        style={{ borderInlineEnd: 0, fontSize: 15 }}
      />
    </nav>
  );
}
