import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/**
 * Headings and text styled as antd's Typography styles them (its heading and text tokens), without
 * loading Typography itself (its ellipsis, copy and edit machinery: 11 KB gzip) on the shell and Pulse.
 * Like AuthTitle on the sign-in route.
 */
export function Heading({ level, children, style }: { level: 3 | 4; children: ReactNode; style?: CSSProperties }) {
  const { token } = theme.useToken();
  const Tag = level === 3 ? 'h3' : 'h4';
  return (
    <Tag
      style={{
        margin: 0,
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: level === 3 ? token.fontSizeHeading3 : token.fontSizeHeading4,
        lineHeight: level === 3 ? token.lineHeightHeading3 : token.lineHeightHeading4,
        wordBreak: 'break-word',
        ...style,
      }}
    >
      {children}
    </Tag>
  );
}

/** Typography.Text type="secondary". */
export function SecondaryText({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorTextSecondary, ...style }}>{children}</span>;
}

/** Typography.Text strong. */
export function StrongText({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorText, fontWeight: token.fontWeightStrong, ...style }}>{children}</span>;
}
