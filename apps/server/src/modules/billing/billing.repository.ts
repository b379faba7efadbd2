import { and, asc, count, desc, eq, inArray, isNull, like, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { billings, paymentEvents, portals, tenants, users } from '../../db/schema/index.ts';

export type BillingRow = typeof billings.$inferSelect;

/** The signed-in user as stored now (the token may predate its tenant), locked for the onboarding step. */
export async function lockUser(ex: Executor, userId: number) {
  const [row] = await ex
    .select({ id: users.id, email: users.email, tenantId: users.tenantId, roles: users.roles, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export interface TenantInfo {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  goalScore: number;
}

/** A new tenant from the form, whose Admin the signing-up user becomes; answers its id. */
export async function insertTenantWithAdmin(ex: Executor, info: TenantInfo, userId: number, now: Date): Promise<number> {
  const [created] = await ex
    .insert(tenants)
    .values({ ...info, subscriptionStatus: 'none', createdAt: now, updatedAt: now })
    .returning({ id: tenants.id });
  await ex
    .update(users)
    .set({ tenantId: created.id, roles: ['Admin'], updatedAt: now })
    .where(eq(users.id, userId));
  return created.id;
}

export async function updateTenantInfo(ex: Executor, tenantId: number, info: TenantInfo, now: Date): Promise<void> {
  await ex
    .update(tenants)
    .set({ ...info, updatedAt: now })
    .where(eq(tenants.id, tenantId));
}

export async function currentTenantOfUser(ex: Executor, userId: number): Promise<number | null> {
  const [row] = await ex
    .select({ tenantId: users.tenantId })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
  return row?.tenantId ?? null;
}

export async function tenantBillingState(ex: Executor, tenantId: number) {
  const [row] = await ex
    .select({
      id: tenants.id,
      freeTier: tenants.freeTier,
      freeCount: tenants.freeCount,
      discount: tenants.discount,
      subscriptionStatus: tenants.subscriptionStatus,
      subscriptionId: tenants.providerSubscriptionId,
      customerId: tenants.providerCustomerId,
      deletedAt: tenants.deletedAt,
      portalCount: sql<number>`(select count(*)::int from ${portals} p where p.tenant_id = ${tenantId} and p.deleted_at is null)`,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ? { ...row, portalCount: Number(row.portalCount) } : null;
}

export async function insertBilling(ex: Executor, values: typeof billings.$inferInsert): Promise<BillingRow> {
  const [row] = await ex.insert(billings).values(values).returning();
  return row;
}

export async function setBillingSession(ex: Executor, tenantId: number, id: number, sessionId: string, now: Date): Promise<void> {
  await ex
    .update(billings)
    .set({ sessionId, updatedAt: now })
    .where(and(eq(billings.tenantId, tenantId), eq(billings.id, id)));
}

export async function deleteBilling(ex: Executor, tenantId: number, id: number): Promise<void> {
  await ex.delete(billings).where(and(eq(billings.tenantId, tenantId), eq(billings.id, id)));
}

/** A session of one provider; with `tenantId`, only when it belongs to that tenant. */
export async function findBillingBySession(
  ex: Executor,
  provider: string,
  sessionId: string,
  tenantId?: number,
): Promise<BillingRow | undefined> {
  const [row] = await ex
    .select()
    .from(billings)
    .where(
      and(
        eq(billings.provider, provider),
        eq(billings.sessionId, sessionId),
        tenantId === undefined ? undefined : eq(billings.tenantId, tenantId),
      ),
    );
  return row;
}

/** A billing row by id, only when it belongs to the tenant. */
export async function findBilling(ex: Executor, tenantId: number, id: number): Promise<BillingRow | undefined> {
  const [row] = await ex
    .select()
    .from(billings)
    .where(and(eq(billings.tenantId, tenantId), eq(billings.id, id)));
  return row;
}

/** The tenant's card-path attempts not yet fulfilled nor ended (session id = a Stripe subscription id). */
export async function pendingCardBillings(ex: Executor, tenantId: number): Promise<BillingRow[]> {
  return ex
    .select()
    .from(billings)
    .where(
      and(
        eq(billings.tenantId, tenantId),
        eq(billings.provider, 'stripe'),
        eq(billings.status, 'pending'),
        like(billings.sessionId, 'sub\\_%'),
      ),
    );
}

/** Pending -> cancelled (a paid row stays paid). */
export async function markBillingCancelled(ex: Executor, row: BillingRow, now: Date): Promise<void> {
  await ex
    .update(billings)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(billings.tenantId, row.tenantId), eq(billings.id, row.id), eq(billings.status, 'pending')));
}

/**
 * Fulfilment, idempotent: the billing row becomes paid with the provider's ids and its trial
 * period, and the tenant's subscription starts trialing. Only the first fulfilment of a row
 * changes anything (the conditional update decides it), so a repeated verification or a late
 * webhook cannot revive a subscription that was cancelled since. Answers whether it applied.
 */
export async function activateSubscription(
  ex: Executor,
  row: BillingRow,
  ids: { subscriptionId?: string; customerId?: string },
  now: Date,
  trialDays: number,
): Promise<boolean> {
  const subscriptionId = ids.subscriptionId ?? row.subscriptionId;
  const changed = await ex
    .update(billings)
    .set({ status: 'paid', subscriptionId, periodStart: now, periodEnd: new Date(now.getTime() + trialDays * 86_400_000), updatedAt: now })
    .where(and(eq(billings.tenantId, row.tenantId), eq(billings.id, row.id), ne(billings.status, 'paid')))
    .returning({ id: billings.id });
  if (changed.length === 0) return false;
  await ex
    .update(tenants)
    .set({
      subscriptionStatus: sql`case when ${tenants.subscriptionStatus} in ('trialing', 'active') then ${tenants.subscriptionStatus} else 'trialing' end`,
      providerSubscriptionId: subscriptionId,
      ...(ids.customerId ? { providerCustomerId: ids.customerId } : {}),
      updatedAt: now,
    })
    .where(eq(tenants.id, row.tenantId));
  return true;
}

/** A provider subscription's status mirrored on its tenant (webhooks). */
export async function setSubscriptionStatusBySubscription(
  ex: Executor,
  subscriptionId: string,
  status: string,
  now: Date,
): Promise<number> {
  const rows = await ex
    .update(tenants)
    .set({ subscriptionStatus: status, updatedAt: now })
    .where(eq(tenants.providerSubscriptionId, subscriptionId))
    .returning({ id: tenants.id });
  return rows.length;
}

/** Records a provider event id; false when it was already recorded (a replay). */
export async function recordPaymentEvent(ex: Executor, id: string, type: string, now: Date): Promise<boolean> {
  const rows = await ex
    .insert(paymentEvents)
    .values({ eventId: id, type, receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.eventId });
  return rows.length > 0;
}

/** The paid billing row carrying the tenant's current subscription, locked. */
export async function lockSubscriptionBilling(ex: Executor, tenantId: number, subscriptionId: string): Promise<BillingRow | undefined> {
  const [row] = await ex
    .select()
    .from(billings)
    .where(and(eq(billings.tenantId, tenantId), eq(billings.subscriptionId, subscriptionId), eq(billings.status, 'paid')))
    .orderBy(desc(billings.id))
    .limit(1)
    .for('update');
  return row;
}

export async function setBillingQuantity(
  ex: Executor,
  row: BillingRow,
  quantity: number,
  unitAmountCents: number,
  now: Date,
): Promise<void> {
  await ex
    .update(billings)
    .set({ quantity, amountCents: quantity * unitAmountCents, updatedAt: now })
    .where(and(eq(billings.tenantId, row.tenantId), eq(billings.id, row.id)));
}

/** Sandbox: the payer pressed Pay (the session completes with a subscription) or Cancel. */
export async function completeSandboxSession(
  ex: Executor,
  sessionId: string,
  subscriptionId: string,
  now: Date,
): Promise<BillingRow | undefined> {
  await ex
    .update(billings)
    .set({ subscriptionId, updatedAt: now })
    .where(
      and(
        eq(billings.provider, 'sandbox'),
        eq(billings.sessionId, sessionId),
        isNull(billings.subscriptionId),
        ne(billings.status, 'cancelled'),
      ),
    );
  return findBillingBySession(ex, 'sandbox', sessionId);
}

export async function setSandboxQuantity(ex: Executor, subscriptionId: string, quantity: number, now: Date): Promise<void> {
  await ex
    .update(billings)
    .set({ quantity, updatedAt: now })
    .where(and(eq(billings.provider, 'sandbox'), eq(billings.subscriptionId, subscriptionId), ne(billings.quantity, quantity)));
}

const SORTS = {
  id: billings.id,
  createdAt: billings.createdAt,
  status: billings.status,
  quantity: billings.quantity,
  amount: billings.amountCents,
  periodStart: billings.periodStart,
  periodEnd: billings.periodEnd,
} as const;

export interface BillingListQuery {
  offset: number;
  limit: number;
  sort?: { field: keyof typeof SORTS; dir: 'ASC' | 'DESC' };
  filter: { status?: string; provider?: string };
}

export async function listBillings(ex: Executor, tenantId: number, q: BillingListQuery): Promise<{ list: BillingRow[]; count: number }> {
  const conds: (SQL | undefined)[] = [eq(billings.tenantId, tenantId), ne(billings.sessionId, '')];
  if (q.filter.status) conds.push(eq(billings.status, q.filter.status));
  if (q.filter.provider) conds.push(inArray(billings.provider, [q.filter.provider]));
  const where = and(...conds);
  const column = SORTS[q.sort?.field ?? 'createdAt'];
  const list = await ex
    .select()
    .from(billings)
    .where(where)
    .orderBy(q.sort?.dir === 'ASC' ? asc(column) : desc(column), desc(billings.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await ex.select({ n: count() }).from(billings).where(where);
  return { list, count: Number(total?.n ?? 0) };
}
