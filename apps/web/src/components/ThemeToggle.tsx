import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useAppDispatch, useAppSelector } from '../lib/state/hooks.ts';
import { themeToggled } from '../lib/state/uiSlices.ts';

export function ThemeToggle({ size = 'large' }: { size?: 'large' | 'middle' }) {
  const mode = useAppSelector((s) => s.theme.mode);
  const dispatch = useAppDispatch();
  const label = mode === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Tooltip title={label}>
      <Button
        size={size}
        aria-label={label}
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => dispatch(themeToggled())}
      />
    </Tooltip>
  );
}
