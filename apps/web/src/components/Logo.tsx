import { Link } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';

/** The product mark: a shield with a pulse line. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <path d="M16 2 4 7v8c0 7.2 5.1 13.4 12 15 6.9-1.6 12-7.8 12-15V7L16 2Z" fill="#0f766e" />
      <path d="M8 17h4l2-5 3 9 2-6 1 2h4" fill="none" stroke="#ccfbf1" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Logo linking to the root (docs/web.md "Shell"). `light` for dark backgrounds. */
export function Logo({ collapsed = false, light = false }: { collapsed?: boolean; light?: boolean }) {
  return (
    <Link
      to="/"
      aria-label={`${PRODUCT_NAME} home`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 10, textDecoration: 'none' }}
    >
      <LogoMark />
      {!collapsed && (
        <span style={{ fontSize: 22, fontWeight: 700, letterSpacing: 0.5, color: light ? '#ffffff' : '#0f766e' }}>{PRODUCT_NAME}</span>
      )}
    </Link>
  );
}
