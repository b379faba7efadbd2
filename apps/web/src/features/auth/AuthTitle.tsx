import { theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * The h2 of an auth card, styled as antd's Typography.Title level 2 (heading tokens) without
 * loading Typography (its ellipsis, copy and edit machinery) on the sign-in route.
 */
export function AuthTitle({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <h2
      style={{
        marginTop: 0,
        marginBottom: '0.5em',
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: token.fontSizeHeading2,
        lineHeight: token.lineHeightHeading2,
      }}
    >
      {children}
    </h2>
  );
}
