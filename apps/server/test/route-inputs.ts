import { pathId } from '@vigil/contracts';
import { z } from 'zod';
import type { RegisteredRoute } from '../src/http/route.ts';
import type { IdKind, WorldTenant } from './world.ts';

/**
 * Valid inputs for any route of the table, shared by the isolation matrix and the
 * bad-input sweep: which kind of object each path parameter names, a minimal
 * valid body and query. Hand-written examples where a schema alone cannot say
 * what is valid (a real date, a license term); the rest comes from the route's
 * zod schema, so a route that lands later gets inputs without a change here.
 */

/** `:id` names an object of the collection right after /v0/api (`/alert-stats/devices/:id` is an alert). */
const COLLECTION_KIND: Record<string, IdKind> = {
  tenants: 'tenant',
  users: 'user',
  customers: 'portal',
  devices: 'device',
  'case-stats': 'case',
  comments: 'comment',
  'alert-stats': 'alert',
  licenses: 'license',
  reports: 'report',
  billings: 'billing',
  'notification-channels': 'channel',
  'maintenance-windows': 'maintenance',
};

/** Named parameters; `userId` in a path is "as whom", the caller's own id when acting normally. */
const NAMED_PARAM_KIND: Record<string, IdKind> = {
  caseId: 'case',
  customerId: 'portal',
  portalId: 'portal',
  alertId: 'alert',
  licenseId: 'license',
  reportId: 'report',
  commentId: 'comment',
  deviceId: 'device',
  tenantId: 'tenant',
  userId: 'user',
  channelId: 'channel',
};

/** Keys of answer objects that hold an id of a kind (used to find another tenant's ids in an answer). */
export const ID_KEY_KIND: Record<string, IdKind> = {
  customerId: 'portal',
  caseId: 'case',
  alertId: 'alert',
  licenseId: 'license',
  userId: 'user',
  tenantId: 'tenant',
  deviceId: 'device',
  channelId: 'channel',
};

/** Objects nested under these keys are of this kind (`{portal: {id, name}}` in a report). */
export const OBJECT_KEY_KIND: Record<string, IdKind> = {
  portal: 'portal',
  customer: 'portal',
  tenant: 'tenant',
  user: 'user',
  case: 'case',
  alert: 'alert',
  license: 'license',
  report: 'report',
  device: 'device',
};

/** Sub-collections whose rows are devices. */
const DEVICE_COLLECTIONS = new Set(['case-devices', 'devices']);

/** The kind of the rows an answer holds: the path's last collection (`/alert-stats/devices/:id` lists devices). */
export function answerKind(path: string): IdKind | undefined {
  const segments = path
    .replace(/^\/v0\/api\//, '')
    .split('/')
    .filter((s) => !s.startsWith(':'));
  for (const segment of segments.reverse()) {
    if (DEVICE_COLLECTIONS.has(segment)) return 'device';
    if (COLLECTION_KIND[segment]) return COLLECTION_KIND[segment];
  }
  return undefined;
}

export const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);

/** The path parameters that are ids (`pathId` in the endpoint's params schema). */
export function idParamNames(route: RegisteredRoute): string[] {
  const shape = route.endpoint.params instanceof z.ZodObject ? (route.endpoint.params.shape as Record<string, unknown>) : {};
  return Object.keys(shape).filter((name) => shape[name] === pathId);
}

export function collectionKind(path: string): IdKind | undefined {
  const segment = path.replace(/^\/v0\/api\//, '').split('/')[0];
  return COLLECTION_KIND[segment];
}

/** The kind of object a path parameter names; throws for a parameter nobody taught this file. */
export function paramKind(path: string, name: string): IdKind {
  const kind = name === 'id' ? collectionKind(path) : NAMED_PARAM_KIND[name];
  if (!kind) throw new Error(`route-inputs: no id kind known for :${name} of ${path}; add it to COLLECTION_KIND or NAMED_PARAM_KIND`);
  return kind;
}

/** A named `userId` parameter says "acting as this user": filled with the caller's own id. */
export const isActingUserParam = (name: string) => name === 'userId';

export const routeKey = (r: Pick<RegisteredRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** Marks "send no body at all" (schemas that accept a missing body). */
export const NO_BODY = Symbol('no body');

type BodyExample = (params: Record<string, number>, tenant: WorldTenant) => unknown;

/** Bodies a schema cannot describe well enough (real dates, allowed terms, matching ids). */
const BODY_EXAMPLES: Record<string, BodyExample> = {
  'POST /v0/api/customers/:id/licenses': () => ({ deviceType: 0, terms: 1, deviceCount: 1, startDate: '2026-01-01' }),
  'POST /v0/api/customers/:id/reports': (p) => ({ customerId: p.id, period: 0, config: [0] }),
  'POST /v0/api/reports/preview': (_p, tenant) => ({ customerId: tenant.ids.portal[0], period: 0, config: [0] }),
  'PATCH /v0/api/reports/:id': () => ({ period: 2 }),
  'PATCH /v0/api/case-stats/:id': () => ({ caseType: 1 }),
  'POST /v0/api/customers/:id': () => ({ name: 'Renamed Portal', apiKey: 'renamed-key' }),
  'POST /v0/api/users/:userId/case-stats/:caseId/comments': () => ({ content: '<p>matrix comment</p>' }),
  'PATCH /v0/api/comments/:id': () => ({ content: '<p>edited</p>' }),
  'PATCH /v0/api/users/:id': () => ({ name: 'Renamed User' }),
  'PATCH /v0/api/tenants/:id': () => ({ name: 'Renamed Tenant' }),
  'POST /v0/api/alert-stats': (_p, tenant) => ({ customerId: tenant.ids.portal[0], alertType: 0 }),
  'POST /v0/api/users': (_p, tenant) => ({
    name: 'Sweep User',
    email: `sweep-${tenant.label.toLowerCase()}@example.test`,
    phone: '555',
    roles: ['Salesman'],
  }),
  'POST /v0/api/customers': () => ({ name: 'Sweep Portal', apiKey: 'sweep-key' }),
  'POST /v0/api/notification-channels': (_p, tenant) => ({
    name: `${tenant.label} sweep channel`,
    type: 'email',
    target: ['sweep@example.test'],
  }),
  'PATCH /v0/api/notification-channels/:id': () => ({ name: 'Renamed channel' }),
  'POST /v0/api/maintenance-windows': (_p, tenant) => ({
    customerId: tenant.ids.portal[0],
    startsAt: '2090-02-01T00:00:00.000Z',
    endsAt: '2090-02-01T01:00:00.000Z',
  }),
  'PATCH /v0/api/maintenance-windows/:id': () => ({ reason: 'Rescheduled' }),
  'POST /v0/api/tenants': () => ({
    name: 'Sweep Tenant',
    contactName: 'C',
    email: 'c@sweep.test',
    phone: '1',
    address: 'A',
    goalScore: 90,
  }),
  'POST /v0/api/tenants/register-with-subscription-redirect': (_p, tenant) => ({
    name: tenant.name,
    contactName: 'C',
    email: 'c@sweep.test',
    phone: '1',
    address: 'A',
    goalScore: 90,
  }),
  'POST /v0/api/tenants/verify-checkout-session': () => ({ sessionId: 'cs_unknown' }),
  'POST /v0/api/tenants/register-with-subscription-intent': (_p, tenant) => ({
    name: tenant.name,
    contactName: 'C',
    email: 'c@sweep.test',
    phone: '1',
    address: 'A',
    goalScore: 90,
  }),
  'POST /v0/api/tenants/confirm-subscription-intent': (_p, tenant) => ({ billingId: tenant.ids.billing[0] }),
  'POST /v0/auth/login': () => ({ email: 'nobody@example.test', password: 'wrong-password-1' }),
  'POST /v0/auth/register': () => ({
    name: 'Sweep Person',
    email: 'sweep-register@example.test',
    phone: '555',
    password: 'a-long-sweep-password',
  }),
  'POST /v0/auth/changePassword': () => ({
    email: 'nobody@example.test',
    currentPassword: 'not-the-password',
    newPassword: 'another-long-password',
    confirmPassword: 'another-long-password',
  }),
  'POST /v0/auth/account-delete': () => ({ password: 'not-the-password' }),
  'POST /v0/auth/password-reset': () => ({ email: 'nobody@example.test' }),
  'POST /v0/auth/verify-email': () => ({ token: 'not-a-token' }),
  'POST /v0/auth/password-confirmation': () => ({
    token: 'not-a-token',
    newPassword: 'another-long-password',
    confirmPassword: 'another-long-password',
  }),
};

/** Query parameters a route requires (the others read fine without any). */
const QUERY_EXAMPLES: Record<string, (tenant: WorldTenant) => Record<string, string | number>> = {
  'GET /v0/api/reports/preview/export.csv': (tenant) => ({ customerId: tenant.ids.portal[0], period: 0, config: '[0,1,2]' }),
  'GET /v0/api/reports/preview/export.pdf': (tenant) => ({ customerId: tenant.ids.portal[0], period: 0, config: '[0,1,2]' }),
};

export function exampleQuery(route: RegisteredRoute, tenant: WorldTenant): Record<string, string | number> | undefined {
  return QUERY_EXAMPLES[routeKey(route)]?.(tenant);
}

/** A minimal valid body for the route, NO_BODY when none is needed. */
export function exampleBody(route: RegisteredRoute, params: Record<string, number>, tenant: WorldTenant): unknown {
  const hand = BODY_EXAMPLES[routeKey(route)];
  if (hand) return hand(params, tenant);
  const schema = route.endpoint.body;
  // The app reads a request without a body as null: only a nullable body may be left out.
  if (!schema || schema.safeParse(null).success) return NO_BODY;
  if (schema.safeParse({}).success) return {};
  return fromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  format?: string;
}

/** The smallest value a JSON schema accepts, as far as a schema can tell. */
export function fromJsonSchema(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return fromJsonSchema(s.anyOf.find((x) => x.type !== 'null') ?? s.anyOf[0]);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, fromJsonSchema(s.properties?.[k] ?? {})]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => fromJsonSchema(s.items ?? {}));
    case 'string':
      return s.format === 'email' ? 'someone@example.test' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Top-level property names of a body or query schema (for the sweep's per-field mutations). */
export function schemaKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const object = json.anyOf?.find((x) => x.type === 'object') ?? json;
    return Object.keys(object.properties ?? {});
  } catch {
    return [];
  }
}
