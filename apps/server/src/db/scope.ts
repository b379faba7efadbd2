import type { Db, Tx } from './client.ts';
import { runCommands } from './commands.ts';
import { APP_ROLE } from './security.ts';

/**
 * Whose rows a unit of work may touch. `tenant` comes only from a verified token;
 * `all` is for the superAdmin and for platform work (sign-in, webhooks, jobs).
 */
export type Scope = { kind: 'tenant'; tenantId: number } | { kind: 'all' };

export const tenantScope = (tenantId: number): Scope => ({ kind: 'tenant', tenantId });
export const allTenants: Scope = { kind: 'all' };

/**
 * The scope's settings for the current transaction only (`set local`), as one command text. The
 * tenant id is checked to be an integer here: the text is run as is, nothing bound.
 */
export function scopeSettings(scope: Scope): string {
  if (scope.kind === 'tenant' && !(Number.isSafeInteger(scope.tenantId) && scope.tenantId > 0))
    throw new Error(`invalid tenant id in scope: ${String(scope.tenantId)}`);
  const tenant = scope.kind === 'tenant' ? String(scope.tenantId) : '';
  const all = scope.kind === 'all' ? 'on' : 'off';
  return `set local role ${APP_ROLE}; set local app.tenant_id = '${tenant}'; set local app.all_tenants = '${all}'`;
}

/**
 * Runs `fn` in one transaction as the non-superuser application role with the
 * scope's tenant set, so row-level security filters every statement even if a
 * query forgets its tenant condition (docs/decisions.md 39, rules 1-2). `moreSettings`: further
 * `set local` commands for this transaction, sent with the scope's.
 */
export async function inScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>, moreSettings?: string): Promise<T> {
  return db.transaction(async (tx) => {
    // `moreSettings` (trusted text, as the scope's) go in the same round trip.
    await runCommands(tx, moreSettings ? `${scopeSettings(scope)}; ${moreSettings}` : scopeSettings(scope));
    return fn(tx);
  });
}
