import { randomBytes, randomUUID } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { loadSessionUser, storeRefreshToken } from './sessions.repository.ts';

export {
  REFRESH_TOKEN_TTL_MS,
  loadSessionUser,
  revokeFamily,
  revokeUserSessions,
  storeRefreshToken,
  type SessionUser,
} from './sessions.repository.ts';

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
    await storeRefreshToken(ex, userId, randomUUID(), refreshToken, deps.clock.now());
    return { accessToken: await deps.accessTokens.sign(user.principal), refreshToken };
  };
  return executor ? run(executor) : inScope(deps.database.db, allTenants, run);
}
