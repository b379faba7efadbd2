import { billingEndpoints as E } from '@vigil/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import { listBillings, startSubscription, toBillingRecord, verifyCheckout } from './billing.service.ts';
import { confirmCardSubscription, startCardSubscription } from './card-subscription.ts';
import { applyPaymentEvent, followPortalChanges } from './fulfilment.ts';
import { InvalidSignature, ProviderFailure, type PaymentProvider } from './providers/provider.ts';
import { createSandboxProvider } from './providers/sandbox.ts';
import { createStripeProvider } from './providers/stripe.ts';
import { registerSandboxCheckout } from './sandbox-checkout.ts';

/** The provider chosen by PAYMENTS (docs/decisions.md 14, 34). */
export function createPaymentProvider(deps: AppDeps): PaymentProvider {
  if (deps.config.payments === 'stripe') {
    const { secretKey, webhookSecret, apiBase, publishableKey } = deps.config.stripe;
    // loadConfig refuses PAYMENTS=stripe without STRIPE_SECRET_KEY; this only narrows the type.
    if (!secretKey) throw new Error('STRIPE_SECRET_KEY is required when PAYMENTS=stripe');
    return createStripeProvider({ secretKey, webhookSecret, apiBase, publishableKey });
  }
  return createSandboxProvider({ database: deps.database, clock: deps.clock, publicUrl: deps.config.publicUrl });
}

/**
 * Billing (docs/decisions.md 34): subscribe through a hosted checkout or (Stripe with a publishable key)
 * the app's card dialog, confirm either server-side, list records, follow portal count.
 */
export const billingModule: AppModule = async (app, deps) => {
  const provider = createPaymentProvider(deps);

  route(app, deps, E.registerWithSubscription, {
    permission: 'onboarding',
    handler: async ({ body, principal }) => ({ data: await startSubscription(deps, provider, principal, body) }),
  });

  route(app, deps, E.verifyCheckoutSession, {
    permission: 'onboarding',
    handler: async ({ body, principal }) => {
      try {
        return { data: await verifyCheckout(deps, provider, principal, body.sessionId) };
      } catch (err) {
        if (err instanceof ProviderFailure) throw new AppError('INTERNAL', 'Failed to verify checkout session');
        throw err;
      }
    },
  });

  route(app, deps, E.registerWithCardSubscription, {
    permission: 'onboarding',
    handler: async ({ body, principal }) => ({ data: await startCardSubscription(deps, provider, principal, body) }),
  });

  route(app, deps, E.confirmCardSubscription, {
    permission: 'onboarding',
    handler: async ({ body, principal }) => {
      try {
        return { data: await confirmCardSubscription(deps, provider, principal, body.billingId) };
      } catch (err) {
        if (err instanceof ProviderFailure) throw new AppError('INTERNAL', 'Failed to verify checkout session');
        throw err;
      }
    },
  });

  route(app, deps, E.list, {
    permission: 'billing:manage',
    handler: async ({ query, principal, tx }) => {
      const { list, count } = await tx((t) => listBillings(t, principal.tenantId, query));
      return { data: { list: list.map(toBillingRecord), count } };
    },
  });

  // Stripe signs the raw bytes: this scope keeps the body as a Buffer (never re-serialized JSON).
  // eslint-disable-next-line @typescript-eslint/require-await -- an async plugin: a throw while registering (a duplicate route) rejects app.register instead of escaping avvio
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_req, body, done) => done(null, body));
    route(scoped, deps, E.stripeWebhook, {
      permission: 'public',
      options: { bodyLimit: 5 * 1024 * 1024 },
      handler: async ({ req }) => {
        if (provider.name !== 'stripe') throw notFound();
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const signature = req.headers['stripe-signature'];
        let event;
        try {
          event = provider.parseWebhook(raw, Array.isArray(signature) ? signature[0] : signature);
        } catch (err) {
          if (err instanceof InvalidSignature) {
            req.log.warn({ reason: err.message }, 'stripe webhook rejected');
            throw badRequest('Invalid Stripe signature');
          }
          throw err;
        }
        const { duplicate } = await applyPaymentEvent(deps, provider, event);
        return { data: { received: true as const, duplicate } };
      },
    });
  });

  if (provider.name === 'sandbox') await registerSandboxCheckout(app, deps);

  const unsubscribe = followPortalChanges(deps, provider);
  app.addHook('onClose', () => unsubscribe());
};
