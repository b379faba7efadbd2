import { ROLES, type Role } from '@vigil/contracts';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../lib/clock.ts';
import type { Principal } from '../http/permissions.ts';
import { deriveKey } from './keys.ts';

const ISSUER = 'vigil';
const AUDIENCE = 'vigil-api';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** Access JWTs (docs/decisions.md 20): HS256 pinned, 15 minutes, iss/aud/exp checked. */
export interface AccessTokens {
  sign(p: Principal): Promise<string>;
  /** The principal, or null for any invalid, expired or foreign token. */
  verify(token: string): Promise<Principal | null>;
}

/** Tokens whose signature and claims were checked, kept until they expire (bounded; oldest out first). */
const MAX_VERIFIED = 10_000;

export function createAccessTokens(appSecret: string, clock: Clock): AccessTokens {
  const key = deriveKey(appSecret, 'access-jwt');
  /**
   * A token is the same signed text on every request of its 15 minutes; checking its HMAC again each
   * time cost ~7 % of the server's CPU under list load (WebCrypto's per-call overhead, plus a trip
   * through the thread pool). A token seen valid stays valid until its `exp` (the key never changes
   * within the process), so only the expiry is checked again, with jose's own rule. Invalid tokens
   * are not kept. Whether its session still stands is not this cache's business: route.ts asks
   * security/session-state.ts on every request.
   */
  const verified = new Map<string, { principal: Principal; exp: number }>();
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    async sign(p) {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({
        tenantId: p.tenantId,
        tenantName: p.tenantName,
        roles: p.roles,
        userId: p.userId,
        userName: p.userName,
        ...(p.sv !== undefined && { sv: p.sv }),
        ...(p.sid !== undefined && { sid: p.sid }),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(p.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > nowSeconds()) return known.principal;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: clock.now(),
        });
        const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is Role => ROLES.includes(r as Role)) : [];
        if (typeof payload.userId !== 'number' || typeof payload.tenantId !== 'number') return null;
        // Shared by every request that carries this token: frozen so that none can change it for the others.
        // sign() writes both names as strings (Principal); String() keeps a missing one as ''.
        const principal: Principal = Object.freeze({
          userId: payload.userId,
          userName: String((payload.userName as string | undefined) ?? ''),
          tenantId: payload.tenantId,
          tenantName: String((payload.tenantName as string | undefined) ?? ''),
          roles: Object.freeze(roles) as Role[],
          ...(typeof payload.sv === 'number' && { sv: payload.sv }),
          ...(typeof payload.sid === 'string' && { sid: payload.sid }),
        });
        // jose checked exp (required by ACCESS tokens' signer; a token without one is not kept).
        if (typeof payload.exp === 'number') {
          if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
          verified.set(token, { principal, exp: payload.exp });
        }
        return principal;
      } catch {
        return null;
      }
    },
  };
}
