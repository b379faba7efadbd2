import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

/** What decides whether a user's access tokens still stand (security/session-state.ts). */
export interface StoredSessionState {
  version: number;
  /** Not deactivated, and its tenant (if any) not deleted. */
  active: boolean;
  /** Sessions (refresh families) revoked since the given time: their access tokens are refused. */
  revokedSessions: string[];
}

/** The user's session state, or null when there is no such user. */
export async function readSessionState(executor: Executor, userId: number, revokedSince: Date): Promise<StoredSessionState | null> {
  const [row] = await queryRows<{ version: number; active: boolean; revoked: string[] | null }>(
    executor,
    sql`select u.session_version as version,
               (u.deactivated_at is null and (u.tenant_id is null or t.deleted_at is null)) as active,
               (select array_agg(distinct r.family_id) from refresh_tokens r
                 where r.user_id = u.id and r.revoked_at > ${revokedSince.toISOString()}::timestamptz) as revoked
          from users u left join tenants t on t.id = u.tenant_id
         where u.id = ${userId}`,
  );
  if (!row) return null;
  return { version: Number(row.version), active: row.active, revokedSessions: row.revoked ?? [] };
}
