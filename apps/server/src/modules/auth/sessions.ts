import { randomBytes, randomUUID } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import type { EventBus } from '../../events/bus.ts';
import { TOPICS, type SessionsRevokedEvent } from '../../events/topics.ts';
import { unauthorized } from '../../http/errors.ts';
import { loadSessionUser, revokeFamilyTokens, revokeUserTokens, storeRefreshToken } from './sessions.repository.ts';

export { REFRESH_TOKEN_TTL_MS, loadSessionUser, storeRefreshToken, type SessionUser } from './sessions.repository.ts';

/** What ending sessions needs of the bus (the command line makes one on its database). */
export type SessionsBus = Pick<EventBus, 'publish'>;

/** Tells every process, at the commit of `executor`'s transaction, to forget what it cached of the user's sessions. */
const announce = (bus: SessionsBus, executor: Executor, userId: number) =>
  bus.publish(TOPICS.sessionsRevoked, { userId } satisfies SessionsRevokedEvent, executor);

/**
 * Ends every session of the user, access tokens included (docs/auth.md "When access ends"): the
 * refresh tokens are revoked and the session version bumped, and every process hears of it at commit.
 */
export async function revokeUserSessions(bus: SessionsBus, executor: Executor, userId: number, now: Date): Promise<void> {
  await revokeUserTokens(executor, userId, now);
  await announce(bus, executor, userId);
}

/** Ends one sign-in (logout, refresh-token reuse): its refresh tokens, and its access tokens (`sid`). */
export async function revokeFamily(bus: SessionsBus, executor: Executor, userId: number, familyId: string, now: Date): Promise<void> {
  await revokeFamilyTokens(executor, familyId, now);
  await announce(bus, executor, userId);
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** An opaque refresh token: 256 random bits; only its SHA-256 is stored. */
export const newRefreshToken = () => randomBytes(32).toString('base64url');

/**
 * Signs in a user: an access JWT with its current claims and a new refresh-token
 * family. Pass `executor` when the user row was written in a transaction not yet
 * committed (e.g. a tenant created in the same request); otherwise one is opened.
 * Throws 401 for an unknown or deactivated user or a deleted tenant.
 */
export async function issueTokens(deps: AppDeps, userId: number, executor?: Executor): Promise<TokenPair> {
  const run = async (ex: Executor): Promise<TokenPair> => {
    const user = await loadSessionUser(ex, userId);
    if (!user || user.deactivated || user.tenantDeleted) throw unauthorized();
    const refreshToken = newRefreshToken();
    const familyId = randomUUID();
    await storeRefreshToken(ex, userId, familyId, refreshToken, deps.clock.now());
    return { accessToken: await deps.accessTokens.sign({ ...user.principal, sid: familyId }), refreshToken };
  };
  return executor ? run(executor) : inScope(deps.database.db, allTenants, run);
}
