import { theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

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

/** A link in an auth card's text, coloured as Typography colours its links (brand link token, no underline). */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Link to={to} style={{ color: token.colorLink, textDecoration: 'none' }}>
      {children}
    </Link>
  );
}
