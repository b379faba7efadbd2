import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf } from './envelope.ts';

/**
 * Settings the web app reads at run time rather than at build time, so one build
 * serves every deployment: the external command portal (Access Command) and the
 * payments mode (COMMAND_PORTAL_URL and PAYMENTS of docs/decisions.md 14).
 */
export const clientConfigSchema = z.object({
  commandPortalUrl: z.string(),
  payments: z.enum(['sandbox', 'stripe']),
  /**
   * STRIPE_PUBLISHABLE_KEY (public by design). With PAYMENTS=stripe and a key, 'Go To Payment'
   * opens the card dialog (Stripe Elements); without one, the hosted checkout.
   */
  stripePublishableKey: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const clientConfigEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/v0/api/config',
    tag: 'config',
    summary: 'Run-time settings of the web app (any signed-in user)',
    response: dataOf(clientConfigSchema),
  }),
};
