/**
 * Method and path of every endpoint, without its zod schemas: what a browser needs to
 * call the API. The web app's sign-in route and shell import this (`@vigil/contracts/routes`)
 * instead of the endpoint objects, so zod (about 25 KB gzip) stays out of their JavaScript.
 * `routes.test.ts` checks every entry against the endpoint objects, so the two cannot drift.
 */
import type { HttpMethod } from './endpoint.ts';
import type { ListQueryInput } from './list-query.ts';

export type RouteGroup = Record<string, { method: HttpMethod; path: string }>;

/** Path of the Server-Sent Events stream: `GET {STREAM_PATH}?ticket=...` (not JSON, so not an endpoint). */
export const LIVE_EVENTS_STREAM_PATH = '/v0/api/live-events/stream';

/** Encodes list state into the query string the list endpoints read. */
export function toListSearchParams(input: ListQueryInput): URLSearchParams {
  const params = new URLSearchParams();
  if (input.range) params.set('range', JSON.stringify(input.range));
  if (input.sort) params.set('sort', JSON.stringify(input.sort));
  if (input.filter && Object.keys(input.filter).length > 0) params.set('filter', JSON.stringify(input.filter));
  return params;
}

export const healthRoutes = {
  healthz: { method: 'GET', path: '/healthz' },
  readyz: { method: 'GET', path: '/readyz' },
} as const satisfies RouteGroup;

export const authRoutes = {
  register: { method: 'POST', path: '/v0/auth/register' },
  login: { method: 'POST', path: '/v0/auth/login' },
  refresh: { method: 'POST', path: '/v0/auth/refresh' },
  logout: { method: 'POST', path: '/v0/auth/logout' },
  changePassword: { method: 'POST', path: '/v0/auth/changePassword' },
  verifyEmail: { method: 'POST', path: '/v0/auth/verify-email' },
  passwordReset: { method: 'POST', path: '/v0/auth/password-reset' },
  passwordConfirmation: { method: 'POST', path: '/v0/auth/password-confirmation' },
  accountDelete: { method: 'POST', path: '/v0/auth/account-delete' },
  me: { method: 'GET', path: '/v0/auth/me' },
  updateMe: { method: 'PATCH', path: '/v0/auth/me' },
} as const satisfies RouteGroup;

export const tenantsRoutes = {
  list: { method: 'GET', path: '/v0/api/tenants' },
  all: { method: 'GET', path: '/v0/api/tenants/all' },
  create: { method: 'POST', path: '/v0/api/tenants' },
  get: { method: 'GET', path: '/v0/api/tenants/:id' },
  update: { method: 'PATCH', path: '/v0/api/tenants/:id' },
  remove: { method: 'DELETE', path: '/v0/api/tenants/:id' },
} as const satisfies RouteGroup;

export const usersRoutes = {
  list: { method: 'GET', path: '/v0/api/users' },
  create: { method: 'POST', path: '/v0/api/users' },
  get: { method: 'GET', path: '/v0/api/users/:id' },
  update: { method: 'PATCH', path: '/v0/api/users/:id' },
  remove: { method: 'DELETE', path: '/v0/api/users/:id' },
  resendInvitation: { method: 'POST', path: '/v0/api/users/:id/invitation' },
} as const satisfies RouteGroup;

export const portalRoutes = {
  list: { method: 'GET', path: '/v0/api/customers' },
  all: { method: 'GET', path: '/v0/api/customers/all' },
  search: { method: 'GET', path: '/v0/api/customers/search' },
  get: { method: 'GET', path: '/v0/api/customers/:id' },
  create: { method: 'POST', path: '/v0/api/customers' },
  update: { method: 'POST', path: '/v0/api/customers/:id' },
  rotateSecret: { method: 'POST', path: '/v0/api/customers/:id/webhook-secret' },
} as const satisfies RouteGroup;

export const webhookRoutes = {
  portal: { method: 'POST', path: '/v0/webhooks/portals/:id' },
} as const satisfies RouteGroup;

export const deviceRoutes = {
  list: { method: 'GET', path: '/v0/api/devices' },
  get: { method: 'GET', path: '/v0/api/devices/:id' },
  history: { method: 'GET', path: '/v0/api/devices/:id/history' },
} as const satisfies RouteGroup;

export const statsRoutes = {
  pulseSummary: { method: 'GET', path: '/v0/api/device-summary/sumup' },
  deviceTypeTotals: { method: 'GET', path: '/v0/api/device-stats/sumup' },
  deviceStats: { method: 'GET', path: '/v0/api/device-stats' },
  customerDeviceSummary: { method: 'GET', path: '/v0/api/customers/:id/device-summary' },
  customerStats: { method: 'GET', path: '/v0/api/customers/:id/stats' },
  customerReliabilityTrend: { method: 'GET', path: '/v0/api/customers/:id/reliability-trend' },
  reliabilityTrend: { method: 'GET', path: '/v0/api/reliability-trend' },
} as const satisfies RouteGroup;

export const liveEventsRoutes = {
  list: { method: 'GET', path: '/v0/api/live-events' },
  ticket: { method: 'POST', path: '/v0/api/live-events/ticket' },
} as const satisfies RouteGroup;

export const caseRoutes = {
  list: { method: 'GET', path: '/v0/api/case-stats' },
  sumup: { method: 'GET', path: '/v0/api/case-stats/sumup' },
  quarterCompleted: { method: 'GET', path: '/v0/api/case-stats/quarter-completed' },
  get: { method: 'GET', path: '/v0/api/case-stats/:id' },
  update: { method: 'PATCH', path: '/v0/api/case-stats/:id' },
  devices: { method: 'GET', path: '/v0/api/case-stats/:id/case-devices' },
  listOfCustomer: { method: 'GET', path: '/v0/api/customers/:id/case-stats' },
  create: { method: 'POST', path: '/v0/api/customers/:id/case-stats' },
} as const satisfies RouteGroup;

export const commentRoutes = {
  list: { method: 'GET', path: '/v0/api/case-stats/:caseId/comments' },
  create: { method: 'POST', path: '/v0/api/users/:userId/case-stats/:caseId/comments' },
  update: { method: 'PATCH', path: '/v0/api/comments/:id' },
  remove: { method: 'DELETE', path: '/v0/api/comments/:id' },
} as const satisfies RouteGroup;

export const alertRoutes = {
  list: { method: 'GET', path: '/v0/api/alert-stats' },
  get: { method: 'GET', path: '/v0/api/alert-stats/:id' },
  create: { method: 'POST', path: '/v0/api/alert-stats' },
  devices: { method: 'GET', path: '/v0/api/alert-stats/devices/:id' },
  createCase: { method: 'POST', path: '/v0/api/alert-stats/:id/case-stats' },
  ack: { method: 'POST', path: '/v0/api/alert-stats/:id/ack' },
} as const satisfies RouteGroup;

export const licenseRoutes = {
  list: { method: 'GET', path: '/v0/api/licenses' },
  create: { method: 'POST', path: '/v0/api/customers/:id/licenses' },
  remove: { method: 'DELETE', path: '/v0/api/licenses/:id' },
} as const satisfies RouteGroup;

export const reportRoutes = {
  list: { method: 'GET', path: '/v0/api/reports' },
  preview: { method: 'POST', path: '/v0/api/reports/preview' },
  previewCsv: { method: 'GET', path: '/v0/api/reports/preview/export.csv' },
  previewPdf: { method: 'GET', path: '/v0/api/reports/preview/export.pdf' },
  get: { method: 'GET', path: '/v0/api/reports/:id' },
  update: { method: 'PATCH', path: '/v0/api/reports/:id' },
  exportCsv: { method: 'GET', path: '/v0/api/reports/:id/export.csv' },
  exportPdf: { method: 'GET', path: '/v0/api/reports/:id/export.pdf' },
  create: { method: 'POST', path: '/v0/api/customers/:id/reports' },
} as const satisfies RouteGroup;

export const billingRoutes = {
  registerWithSubscription: { method: 'POST', path: '/v0/api/tenants/register-with-subscription-redirect' },
  verifyCheckoutSession: { method: 'POST', path: '/v0/api/tenants/verify-checkout-session' },
  registerWithCardSubscription: { method: 'POST', path: '/v0/api/tenants/register-with-subscription-intent' },
  confirmCardSubscription: { method: 'POST', path: '/v0/api/tenants/confirm-subscription-intent' },
  list: { method: 'GET', path: '/v0/api/billings' },
  stripeWebhook: { method: 'POST', path: '/v0/webhooks/stripe' },
} as const satisfies RouteGroup;

export const clientConfigRoutes = {
  get: { method: 'GET', path: '/v0/api/config' },
} as const satisfies RouteGroup;

export const notificationChannelRoutes = {
  list: { method: 'GET', path: '/v0/api/notification-channels' },
  create: { method: 'POST', path: '/v0/api/notification-channels' },
  get: { method: 'GET', path: '/v0/api/notification-channels/:id' },
  update: { method: 'PATCH', path: '/v0/api/notification-channels/:id' },
  remove: { method: 'DELETE', path: '/v0/api/notification-channels/:id' },
  test: { method: 'POST', path: '/v0/api/notification-channels/:id/test' },
  rotateSecret: { method: 'POST', path: '/v0/api/notification-channels/:id/secret' },
} as const satisfies RouteGroup;

export const notificationRoutes = {
  list: { method: 'GET', path: '/v0/api/notifications' },
} as const satisfies RouteGroup;

export const maintenanceRoutes = {
  list: { method: 'GET', path: '/v0/api/maintenance-windows' },
  create: { method: 'POST', path: '/v0/api/maintenance-windows' },
  get: { method: 'GET', path: '/v0/api/maintenance-windows/:id' },
  update: { method: 'PATCH', path: '/v0/api/maintenance-windows/:id' },
  remove: { method: 'DELETE', path: '/v0/api/maintenance-windows/:id' },
} as const satisfies RouteGroup;
