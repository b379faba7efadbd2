import { MSG } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { claimRefreshToken, findAccountByEmail, findRefreshToken, type RefreshTokenRow } from './auth.repository.ts';
import { issueTokens, loadSessionUser, newRefreshToken, revokeFamily, storeRefreshToken, type TokenPair } from './sessions.ts';
import { ACCOUNT_RULE, IP_RULE, accountKey, assertNotThrottled, clearFailures, ipKey, recordFailure } from './throttle.ts';

/**
 * A used refresh token presented again within this window continues its family
 * instead of counting as reuse: two tabs (or a retried request) refreshing with the
 * same token at once must not sign the user out. Later reuse revokes the family.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/**
 * Sign-in with email and password. Every refusal answers the same generic 401 and
 * counts a failure on the account and the IP; unknown emails cost one argon2
 * verification like a wrong password (verifyPassword's dummy hash).
 */
export async function login(
  deps: AppDeps,
  input: { email: string; password: string; ip: string },
): Promise<TokenPair & { userId: number }> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const keys = { account: accountKey(input.email), ip: ipKey(input.ip) };
  await inScope(db, allTenants, (tx) => assertNotThrottled(tx, [keys.account, keys.ip], now));
  const account = await inScope(db, allTenants, (tx) => findAccountByEmail(tx, input.email));
  const passwordOk = await verifyPassword(account?.passwordHash ?? null, input.password);

  const refusal = !account
    ? 'unknown email'
    : !account.passwordHash
      ? 'no password set (invitation not accepted)'
      : !passwordOk
        ? 'wrong password'
        : account.deactivatedAt
          ? 'account deactivated'
          : account.tenantDeletedAt
            ? 'tenant deleted'
            : null;
  if (refusal || !account) {
    // Committed before the 401 so the failure counts even though the request fails.
    const failures = await inScope(db, allTenants, async (tx) => {
      const n = await recordFailure(tx, keys.account, ACCOUNT_RULE, now);
      await recordFailure(tx, keys.ip, IP_RULE, now);
      return n;
    });
    deps.log.warn({ userId: account?.id ?? null, ip: input.ip, reason: refusal, failures }, 'sign-in failed');
    throw unauthorized(MSG.invalidCredentials);
  }

  const tokens = await inScope(db, allTenants, async (tx) => {
    await clearFailures(tx, keys.account);
    return issueTokens(deps, account.id, tx);
  });
  deps.log.info({ userId: account.id, tenantId: account.tenantId ?? -1, ip: input.ip }, 'sign-in');
  return { ...tokens, userId: account.id };
}

type RefreshOutcome = { ok: true; pair: TokenPair; userId: number } | { ok: false; reason: string; userId?: number };

/**
 * Rotates a refresh token: the presented one is marked used and a new one of the same
 * family is returned with an access token carrying the user's current roles and tenant.
 * Reuse of a used token (after the grace) revokes the whole family.
 */
export async function refresh(deps: AppDeps, token: string): Promise<TokenPair> {
  const now = deps.clock.now();
  const outcome = await inScope(deps.database.db, allTenants, async (tx): Promise<RefreshOutcome> => {
    let row: RefreshTokenRow | null = await claimRefreshToken(tx, token, now);
    if (!row) {
      const found = await findRefreshToken(tx, token);
      if (!found) return { ok: false, reason: 'unknown token' };
      if (found.revokedAt) return { ok: false, reason: 'revoked token', userId: found.userId };
      const withinGrace = found.usedAt !== null && now.getTime() - found.usedAt.getTime() <= REFRESH_REUSE_GRACE_MS;
      if (!withinGrace) {
        await revokeFamily(deps.bus, tx, found.userId, found.familyId, now);
        return { ok: false, reason: 'reuse of a rotated token: family revoked', userId: found.userId };
      }
      row = found;
    }
    if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired token', userId: row.userId };
    const user = await loadSessionUser(tx, row.userId);
    if (!user || user.deactivated || user.tenantDeleted) {
      await revokeFamily(deps.bus, tx, row.userId, row.familyId, now);
      return { ok: false, reason: 'user deactivated or tenant deleted', userId: row.userId };
    }
    const next = newRefreshToken();
    await storeRefreshToken(tx, row.userId, row.familyId, next, now);
    return {
      ok: true,
      userId: row.userId,
      pair: { accessToken: await deps.accessTokens.sign({ ...user.principal, sid: row.familyId }), refreshToken: next },
    };
  });
  if (!outcome.ok) {
    deps.log.warn({ userId: outcome.userId ?? null, reason: outcome.reason }, 'refresh refused');
    throw unauthorized();
  }
  return outcome.pair;
}

/** Ends the sign-in the refresh token belongs to; unknown or already revoked tokens are fine. */
export async function logout(deps: AppDeps, token: string | undefined): Promise<void> {
  if (!token) return;
  const now = deps.clock.now();
  const userId = await inScope(deps.database.db, allTenants, async (tx) => {
    const found = await findRefreshToken(tx, token);
    if (!found) return null;
    await revokeFamily(deps.bus, tx, found.userId, found.familyId, now);
    return found.userId;
  });
  if (userId !== null) deps.log.info({ userId }, 'sign-out');
}
