import { theme, type ThemeConfig } from 'antd';
import type { ThemeMode } from './state/uiSlices.ts';

/** Status colours: one meaning each, everywhere (visual-design.md). */
export const STATUS_COLORS = {
  online: '#52c41a',
  offline: '#ff4d4f',
  offlineFaint: '#d9a3a3',
  warning: '#faad14',
  /** A device in a maintenance window (status 2 of its history): the timeline's blue too. */
  maintenance: '#1677ff',
  unknown: '#bfbfbf',
} as const;

export const BRAND = '#0f766e';
/** The brand's seed for the dark theme (see themeOf). */
export const BRAND_ON_DARK = '#0d9488';
export const SIDER_WIDTH = 250;
export const SIDER_COLLAPSED_WIDTH = 80;
export const HEADER_HEIGHT = 100;
export const NARROW_QUERY = '(max-width: 769px)';

/** The one theme source: antd tokens with the light or dark algorithm. */
export function themeOf(mode: ThemeMode): ThemeConfig {
  return {
    // Component styles come from antd's prebuilt stylesheet (imported by main.tsx), not generated in the
    // browser: generating them (CSS-in-JS) took about a fifth of the main thread's work before the first
    // paint of Pulse. The theme still applies: the tokens below become CSS variables that stylesheet reads.
    zeroRuntime: true,
    algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      // On dark, antd's algorithm darkens the seed: the brand's own teal gave active tabs and the current
      // page number 2.75:1 on the dark background; this lighter seed gives 3.9:1 and keeps white text on
      // primary buttons at 4.75:1 (e2e/tests/contrast-check.ts).
      colorPrimary: mode === 'dark' ? BRAND_ON_DARK : BRAND,
      // Links follow the brand (antd derives them from the info colour otherwise); lighter on dark for contrast.
      colorLink: mode === 'dark' ? '#2dd4bf' : BRAND,
      colorSuccess: STATUS_COLORS.online,
      colorError: STATUS_COLORS.offline,
      colorWarning: STATUS_COLORS.warning,
      borderRadius: 8,
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      ...(mode === 'light' ? { colorBgLayout: '#f3f5f7' } : {}),
    },
    components: {
      Layout: mode === 'light' ? { siderBg: '#0b3b37', headerBg: '#ffffff', bodyBg: '#f3f5f7' } : { siderBg: '#0a1f1d' },
      Menu:
        mode === 'light'
          ? { darkItemBg: '#0b3b37', darkSubMenuItemBg: '#082e2b', darkItemSelectedBg: BRAND }
          : { darkItemBg: '#0a1f1d', darkSubMenuItemBg: '#071715', darkItemSelectedBg: BRAND },
    },
  };
}
