import { randomBytes } from 'node:crypto';
import type { Database } from '../../../db/client.ts';
import { allTenants, inScope } from '../../../db/scope.ts';
import type { Clock } from '../../../lib/clock.ts';
import * as repo from '../billing.repository.ts';
import { InvalidSignature, type CheckoutRequest, type CheckoutState, type PaymentProvider } from './provider.ts';

export const SANDBOX_SESSION = /^sbx_cs_[a-f0-9]{32}$/;

/**
 * The local provider (default): its sessions live in the `billings` table and its hosted
 * checkout is a plain page of this app (`/sandbox/checkout/:sessionId`, sandbox-checkout.ts).
 * Pressing Pay completes the session with a sandbox subscription id; Cancel cancels it.
 * Nothing is charged; it exists so the whole flow runs on one machine.
 */
export function createSandboxProvider(opts: { database: Database; clock: Clock; publicUrl: string }): PaymentProvider {
  const platform = <T>(fn: Parameters<typeof inScope<T>>[2]) => inScope(opts.database.db, allTenants, fn);
  return {
    name: 'sandbox',
    createCheckout(_req: CheckoutRequest) {
      const sessionId = `sbx_cs_${randomBytes(16).toString('hex')}`;
      return Promise.resolve({ sessionId, url: `${opts.publicUrl}/sandbox/checkout/${sessionId}` });
    },
    async getCheckout(sessionId: string): Promise<CheckoutState> {
      const row = await platform((tx) => repo.findBillingBySession(tx, 'sandbox', sessionId));
      if (!row) return { status: 'unpaid', tenantReference: null };
      const tenantReference = String(row.tenantId);
      if (row.subscriptionId)
        return { status: 'paid', tenantReference, subscriptionId: row.subscriptionId, customerId: `sbx_cus_${row.tenantId}` };
      return { status: row.status === 'cancelled' ? 'cancelled' : 'unpaid', tenantReference };
    },
    async updateQuantity(subscriptionId: string, quantity: number) {
      await platform((tx) => repo.setSandboxQuantity(tx, subscriptionId, quantity, opts.clock.now()));
    },
    parseWebhook() {
      // The sandbox completes sessions in-process; it sends no webhooks.
      throw new InvalidSignature('the sandbox provider sends no webhooks');
    },
  };
}

/** Pay on the sandbox page: completes the session (once) with a new sandbox subscription. */
export function paySandboxSession(database: Database, sessionId: string, now: Date) {
  return inScope(database.db, allTenants, (tx) =>
    repo.completeSandboxSession(tx, sessionId, `sbx_sub_${randomBytes(12).toString('hex')}`, now),
  );
}

/** Cancel on the sandbox page: a session not yet paid is cancelled. */
export function cancelSandboxSession(database: Database, sessionId: string, now: Date) {
  return inScope(database.db, allTenants, async (tx) => {
    const row = await repo.findBillingBySession(tx, 'sandbox', sessionId);
    if (row && !row.subscriptionId) await repo.markBillingCancelled(tx, row, now);
    return repo.findBillingBySession(tx, 'sandbox', sessionId);
  });
}
