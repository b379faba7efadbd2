import { createAccessTokens } from '../../../apps/server/src/security/access-tokens.ts';
import { systemClock } from '../../../apps/server/src/lib/clock.ts';
import type { SeededTenant } from '../seed.ts';

/**
 * Access tokens signed with the server's APP_SECRET, exactly what sign-in would hand out.
 * Tokens last 15 minutes, so each measurement asks for a fresh one.
 */
export function tokenSigner(appSecret: string) {
  const tokens = createAccessTokens(appSecret, systemClock);
  return async (tenant: SeededTenant): Promise<string> =>
    tokens.sign({ userId: tenant.adminUserId, userName: 'Bench Admin', tenantId: tenant.id, tenantName: tenant.name, roles: ['Admin'] });
}
export type TokenSigner = ReturnType<typeof tokenSigner>;

/** GET a JSON route with a bearer token; throws on a non-2xx answer. */
export async function getJson<T = unknown>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${url.replace(/^https?:\/\/[^/]+/, '')}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}
