import { Drawer } from 'antd';
import { useAppSelector } from '../../lib/state/hooks.ts';
import { SideNav } from './SideNav.tsx';

/**
 * The navigation of narrow screens (769 px and below): a 95vw drawer from the left, closed by tapping
 * outside. Its own chunk: wide screens never load the Drawer.
 */
export default function NavDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const mode = useAppSelector((s) => s.theme.mode);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size="95vw"
      closable={false}
      styles={{ body: { padding: 0, background: mode === 'dark' ? '#0a1f1d' : '#0b3b37' } }}
      aria-label="Navigation"
    >
      <SideNav onNavigate={onClose} />
    </Drawer>
  );
}
