import { PRODUCT_NAME } from '@vigil/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import { findTenant } from '../tenants/index.ts';
import * as repo from './billing.repository.ts';
import { returnUrl, TRIAL_DAYS } from './pricing.ts';
import { cancelSandboxSession, paySandboxSession, SANDBOX_SESSION } from './providers/sandbox.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** A complete page; no script at all (the CSP forbids inline scripts), plain forms only. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${PRODUCT_NAME}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f3f4f6;color:#111827;margin:0;padding:40px 16px}
main{max-width:460px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:32px}
h1{font-size:20px;margin:0 0 4px}.muted{color:#6b7280;font-size:14px}.total{font-size:28px;font-weight:700;margin:16px 0 4px}
table{width:100%;border-collapse:collapse;margin:16px 0}td{padding:6px 0;border-bottom:1px solid #e5e7eb}td:last-child{text-align:right}
.actions{display:flex;gap:12px;margin-top:24px}form{flex:1}button{width:100%;padding:12px;border-radius:8px;font-size:16px;cursor:pointer;border:1px solid #d1d5db;background:#fff}
button.pay{background:#0f766e;color:#fff;border-color:#0f766e}.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:6px;padding:2px 8px;font-size:12px}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The sandbox provider's hosted checkout (docs/decisions.md 34): `GET /sandbox/checkout/:sessionId`
 * shows the amount with Pay and Cancel; both POST here and answer 303 to Settings with the
 * product's query parameters. Outside /v0: it is a page of the provider, not of the API.
 */
export async function registerSandboxCheckout(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/require-await -- an async plugin: a throw while registering (a duplicate route) rejects app.register instead of escaping avvio
  await app.register(async (scoped) => {
    // Browsers post forms urlencoded; the buttons carry no fields we need.
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) =>
      done(null, {}),
    );

    const notFoundPage = (reply: import('fastify').FastifyReply) =>
      reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(page('Checkout not found', '<h1>Checkout not found</h1><p class="muted">This checkout session does not exist.</p>'));

    scoped.get<{ Params: { sessionId: string } }>('/sandbox/checkout/:sessionId', async (req, reply) => {
      const { sessionId } = req.params;
      if (!SANDBOX_SESSION.test(sessionId)) return notFoundPage(reply);
      const found = await inScope(deps.database.db, allTenants, async (tx) => {
        const row = await repo.findBillingBySession(tx, 'sandbox', sessionId);
        if (!row) return null;
        const tenant = await findTenant(tx, row.tenantId);
        return { row, tenantName: tenant?.name ?? '' };
      });
      if (!found) return notFoundPage(reply);
      const { row, tenantName } = found;
      const unit = row.quantity > 0 ? Math.round(row.amountCents / row.quantity) : 0;
      const open = !row.subscriptionId && row.status !== 'cancelled';
      const state = row.subscriptionId ? 'This checkout is complete.' : row.status === 'cancelled' ? 'This checkout was cancelled.' : '';
      const actions = open
        ? `<div class="actions">
<form method="post" action="/sandbox/checkout/${sessionId}/cancel"><button type="submit">Cancel</button></form>
<form method="post" action="/sandbox/checkout/${sessionId}/pay"><button type="submit" class="pay">Pay</button></form>
</div>`
        : `<p>${state}</p><p><a href="${escapeHtml(returnUrl(deps.config.publicUrl, Boolean(row.subscriptionId), { sessionId, tenantId: row.tenantId, billingId: row.id }))}">Back to ${PRODUCT_NAME}</a></p>`;
      const body = `<span class="badge">Sandbox: no card is charged</span>
<h1>Subscribe to ${PRODUCT_NAME}</h1><p class="muted">${escapeHtml(tenantName)}</p>
<table><tr><td>${PRODUCT_NAME} portal</td><td>${usd(unit)} / month</td></tr><tr><td>Portals</td><td>${row.quantity}</td></tr>
<tr><td>Free trial</td><td>${TRIAL_DAYS} days</td></tr></table>
<div class="total">${usd(row.amountCents)} / month</div>
<p class="muted">${row.quantity} x ${usd(unit)} per month after a ${TRIAL_DAYS}-day free trial. Nothing is due today.</p>
${actions}`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page('Checkout', body));
    });

    for (const action of ['pay', 'cancel'] as const) {
      scoped.post<{ Params: { sessionId: string } }>(`/sandbox/checkout/:sessionId/${action}`, async (req, reply) => {
        const { sessionId } = req.params;
        if (!SANDBOX_SESSION.test(sessionId)) return notFoundPage(reply);
        const now = deps.clock.now();
        const row =
          action === 'pay'
            ? await paySandboxSession(deps.database, sessionId, now)
            : await cancelSandboxSession(deps.database, sessionId, now);
        if (!row) return notFoundPage(reply);
        const success = action === 'pay' && Boolean(row.subscriptionId);
        return reply
          .code(303)
          .header('location', returnUrl(deps.config.publicUrl, success, { sessionId, tenantId: row.tenantId, billingId: row.id }))
          .send();
      });
    }
  });
}
