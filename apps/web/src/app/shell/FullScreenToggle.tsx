import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState } from 'react';

/** 'Full Screen' toggle; resets when the browser leaves full screen (Esc), via fullscreenchange. */
export function FullScreenToggle() {
  const [full, setFull] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch (e) {
      console.warn('full screen not available', e);
    }
  };
  return (
    <Button size="large" icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} aria-pressed={full}>
      Full Screen
    </Button>
  );
}
