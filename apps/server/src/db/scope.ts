import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { APP_ROLE } from './security.ts';

/**
 * Whose rows a unit of work may touch. `tenant` comes only from a verified token;
 * `all` is for the superAdmin and for platform work (sign-in, webhooks, jobs).
 */
export type Scope = { kind: 'tenant'; tenantId: number } | { kind: 'all' };

export const tenantScope = (tenantId: number): Scope => ({ kind: 'tenant', tenantId });
export const allTenants: Scope = { kind: 'all' };

/**
 * Runs `fn` in one transaction as the non-superuser application role with the
 * scope's tenant set, so row-level security filters every statement even if a
 * query forgets its tenant condition (security guide rules 1-2).
 */
export async function inScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const tenant = scope.kind === 'tenant' ? String(scope.tenantId) : '';
    const all = scope.kind === 'all' ? 'on' : 'off';
    await tx.execute(
      sql`select set_config('role', ${APP_ROLE}, true), set_config('app.tenant_id', ${tenant}, true), set_config('app.all_tenants', ${all}, true)`,
    );
    return fn(tx);
  });
}
