import type { Role } from '@vigil/contracts';

export interface TokenClaims {
  tenantId: number;
  tenantName: string;
  roles: Role[];
  userId: number;
  userName: string;
  exp?: number;
}

function base64UrlDecode(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads the claims of an access token (display only: the server verifies it). */
export function claimsOf(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const raw = JSON.parse(base64UrlDecode(payload)) as Record<string, unknown>;
    return {
      tenantId: typeof raw.tenantId === 'number' ? raw.tenantId : -1,
      tenantName: typeof raw.tenantName === 'string' ? raw.tenantName : '',
      roles: Array.isArray(raw.roles) ? (raw.roles as Role[]) : [],
      userId: typeof raw.userId === 'number' ? raw.userId : -1,
      userName: typeof raw.userName === 'string' ? raw.userName : '',
      exp: typeof raw.exp === 'number' ? raw.exp : undefined,
    };
  } catch {
    return null;
  }
}
