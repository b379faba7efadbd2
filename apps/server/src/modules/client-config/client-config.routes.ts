import { clientConfigEndpoints } from '@vigil/contracts';
import { route, type AppModule } from '../../http/route.ts';

/** GET /v0/api/config: the deployment's settings the web app needs at run time (no secrets). */
export const clientConfigModule: AppModule = (app, deps) => {
  route(app, deps, clientConfigEndpoints.get, {
    permission: 'self',
    handler: () => ({
      data: {
        commandPortalUrl: deps.config.commandPortalUrl,
        payments: deps.config.payments,
        // Only meaningful (and only sent) when Stripe is the provider.
        stripePublishableKey: deps.config.payments === 'stripe' ? (deps.config.stripe.publishableKey ?? null) : null,
      },
    }),
  });
};
