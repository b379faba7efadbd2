import { ROLES, type Role } from '@vigil/contracts';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../lib/clock.ts';
import type { Principal } from '../http/permissions.ts';
import { deriveKey } from './keys.ts';

const ISSUER = 'vigil';
const AUDIENCE = 'vigil-api';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** Access JWTs (decisions.md §3): HS256 pinned, 15 minutes, iss/aud/exp checked. */
export interface AccessTokens {
  sign(p: Principal): Promise<string>;
  /** The principal, or null for any invalid, expired or foreign token. */
  verify(token: string): Promise<Principal | null>;
}

export function createAccessTokens(appSecret: string, clock: Clock): AccessTokens {
  const key = deriveKey(appSecret, 'access-jwt');
  return {
    async sign(p) {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ tenantId: p.tenantId, tenantName: p.tenantName, roles: p.roles, userId: p.userId, userName: p.userName })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(p.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: clock.now(),
        });
        const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is Role => ROLES.includes(r as Role)) : [];
        if (typeof payload.userId !== 'number' || typeof payload.tenantId !== 'number') return null;
        return {
          userId: payload.userId,
          userName: String(payload.userName ?? ''),
          tenantId: payload.tenantId,
          tenantName: String(payload.tenantName ?? ''),
          roles,
        };
      } catch {
        return null;
      }
    },
  };
}
