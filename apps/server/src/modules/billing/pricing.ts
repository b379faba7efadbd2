import { LIMITS } from '@vigil/contracts';

/** 49.99 USD per billable portal per month (docs/product.md "Constants"), in cents. */
export const UNIT_AMOUNT_CENTS = Math.round(LIMITS.pricePerPortalUsd * 100);
export const CURRENCY = 'usd';
export const TRIAL_DAYS = LIMITS.trialDays;

export interface TenantTerms {
  freeTier: boolean;
  freeCount: number;
  discount: number;
}

/** The per-portal price after the tenant's discount (percent off), in cents. */
export const unitAmountCents = (terms: TenantTerms) =>
  Math.round((UNIT_AMOUNT_CENTS * (100 - Math.min(100, Math.max(0, terms.discount)))) / 100);

/** Portals beyond the free ones (docs/decisions.md 36); none on the free tier. */
export const billablePortals = (terms: TenantTerms, portalCount: number) =>
  terms.freeTier ? 0 : Math.max(0, portalCount - terms.freeCount);

/** A checkout needs at least one unit; the quantity then follows the portals (possibly down to 0). */
export const checkoutQuantity = (terms: TenantTerms, portalCount: number) => Math.max(1, billablePortals(terms, portalCount));

/**
 * Where the checkout returns the browser (docs/decisions.md 35): Settings with the product's query
 * parameters; the web app then asks verify-checkout-session, never trusting the flag.
 */
export function returnUrl(publicUrl: string, success: boolean, ids: { sessionId: string; tenantId: number; billingId: number }): string {
  const session = ids.sessionId === '{CHECKOUT_SESSION_ID}' ? ids.sessionId : encodeURIComponent(ids.sessionId);
  return `${publicUrl}/dashboards/settings?stripe_success=${success}&session_id=${session}&tenant_id=${ids.tenantId}&billing_id=${ids.billingId}`;
}
