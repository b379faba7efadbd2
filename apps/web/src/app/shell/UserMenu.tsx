import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown } from 'antd';
import { StrongText } from '../../components/Text.tsx';
import { useSignOut } from '../../features/auth/useSignOut.ts';
import { useAuth } from '../../lib/state/hooks.ts';

export const DEFAULT_USER_NAME = 'ADMIN';

/** Avatar menu with its one 'logout' entry; the name falls back to 'ADMIN'. */
export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { userName } = useAuth();
  const signOut = useSignOut();
  const name = userName || DEFAULT_USER_NAME;
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items: [{ key: 'logout', label: 'logout', icon: <LogoutOutlined /> }], onClick: () => void signOut() }}
    >
      <Button
        type="text"
        size="large"
        aria-label={`Account menu of ${name}`}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 8, height: 48 }}
      >
        <Avatar style={{ backgroundColor: '#0f766e' }} icon={<UserOutlined />} />
        {!compact && <StrongText>{name}</StrongText>}
      </Button>
    </Dropdown>
  );
}
