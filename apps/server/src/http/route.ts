import type { Endpoint } from '@vigil/contracts';
import { MSG } from '@vigil/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Executor, Tx } from '../db/client.ts';
import { inReadScope } from '../db/read-scope.ts';
import { allTenants, inScope, tenantScope, type Scope } from '../db/scope.ts';
import type { AppDeps } from '../deps.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { idSegmentsOr404 } from './path-ids.ts';
import { allows, hasTenant, isSuperAdmin, type Permission, type Principal } from './permissions.ts';
import { SharedReads } from './shared-reads.ts';
import { markSharedAnswer } from './shared-serialization.ts';

/** A feature module: registers its routes (through route()) and hooks on the app. */
export type AppModule = (app: FastifyInstance, deps: AppDeps) => Promise<void> | void;

/**
 * The parsed value of a schema the endpoint declares (fastify validated it before the handler), or
 * `undefined` when the endpoint declares none: its generic parameter is then the default `z.ZodType`.
 */
type Out<S> = z.ZodType extends S ? undefined : S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<E extends Endpoint> {
  params: E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? Out<P> : undefined;
  query: E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? Out<Q> : undefined;
  body: E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? Out<B> : undefined;
  /** The verified caller; for 'public' routes, present only when a valid token was sent. */
  principal: E extends Endpoint ? Principal : never;
  /** Rows this caller may touch: its tenant, or all for the superAdmin. */
  scope: Scope;
  /** One transaction in the caller's scope with row-level security on. */
  tx: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * A read's transaction, as `tx`, whose statements run prepared with generic plans (db/prepared.ts):
   * planned once per database session instead of at every request. For reads of a few statement
   * shapes (lists, Pulse): each shape stays prepared.
   */
  readTx: <T>(fn: (executor: Executor) => Promise<T>) => Promise<T>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteOptions<E extends Endpoint> {
  permission: Permission;
  handler: (ctx: RouteContext<E>) => Promise<z.input<E['response']>> | z.input<E['response']>;
  /** fastify route options (bodyLimit, rate limit config, ...). */
  options?: Pick<RouteShorthandOptions, 'bodyLimit' | 'config'>;
  /**
   * Identical concurrent calls share one run (shared-reads.ts). On by default for GET routes of the
   * read permissions; such a handler may not use `req` or `reply` (its answer goes to every caller
   * of the round). Off for handlers that write the reply themselves (file downloads).
   */
  shareIdenticalReads?: boolean;
  /**
   * A creation that found nothing to hold answers 200 with `{data: {error, msg}}` (docs/decisions.md 30)
   * although the endpoint's status is 201: when the handler's `data` holds an `error`, the status
   * becomes 200 once the answer is serialized (through the endpoint's response schema).
   */
  refusalAs200?: boolean;
}

const READ_PERMISSIONS: readonly Permission[] = ['read', 'portals:read', 'monitoring:read'];

/** Everything a shared read's answer depends on: the URL (path and query) and the verified caller. */
const sharedReadKey = (req: FastifyRequest, p: Principal) =>
  JSON.stringify([req.url, p.userId, p.tenantId, p.roles, p.userName, p.tenantName]);

function notInSharedRead(): never {
  throw new Error('a shared read handler must not use req or reply: set shareIdenticalReads: false on its route');
}

const isRefusal = (result: unknown): boolean => {
  const data = (result as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && 'error' in data;
};

export interface RegisteredRoute {
  method: string;
  path: string;
  permission: Permission;
  endpoint: Endpoint;
}

/**
 * The caller of a valid access token whose session still stands; null otherwise. A token of an
 * ended session (user deactivated or deleted, logged out, password changed, role changed, tenant
 * deleted) is refused like an expired one (docs/auth.md "When access ends").
 */
export async function principalOf(deps: AppDeps, req: FastifyRequest): Promise<Principal | null> {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const principal = await deps.accessTokens.verify(header.slice(7).trim());
  if (!principal) return null;
  const current = deps.sessions.isCurrent(principal);
  return current === true || (current !== false && (await current)) ? principal : null;
}

/** The tenant a caller reads: its own, or undefined (every tenant) for the superAdmin. */
export const tenantOf = (scope: Scope) => (scope.kind === 'tenant' ? scope.tenantId : undefined);

function scopeOf(p: Principal | null): Scope | null {
  if (!p) return null;
  if (isSuperAdmin(p)) return allTenants;
  return hasTenant(p) ? tenantScope(p.tenantId) : null;
}

/**
 * What a handler gets (RouteContext). A class, not an object literal with getters: a literal's
 * getters are closures of its own, so every request made a hidden class (map) of its own, allocated
 * where V8 keeps long-lived objects; those maps held the request's closures, and through them the
 * whole request, past every young-generation collection until the next full one: every request's
 * objects were promoted and a scavenge took 20-30 ms instead of 1-2 (docs/performance-choices.md "Per-request
 * hidden classes"). A class keeps its getters on the prototype: one map for every request.
 */
class RequestContext {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;

  constructor(
    private readonly deps: AppDeps,
    private readonly request: FastifyRequest,
    private readonly response: FastifyReply,
    readonly principal: Principal | null,
    private readonly scopeOrNull: Scope | null,
    /** A shared read's handler answers every caller of its round: it may not touch one caller's req or reply. */
    private readonly sharedRead: boolean,
  ) {
    this.params = request.params;
    this.query = request.query;
    this.body = request.body;
  }

  get scope(): Scope {
    if (!this.scopeOrNull) throw new AppError('FORBIDDEN');
    return this.scopeOrNull;
  }

  tx = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => inScope(this.deps.database.db, this.scope, fn);

  readTx = <T>(fn: (executor: Executor) => Promise<T>): Promise<T> => inReadScope(this.deps.database, this.scope, fn);

  get req(): FastifyRequest {
    return this.sharedRead ? notInSharedRead() : this.request;
  }

  get reply(): FastifyReply {
    return this.sharedRead ? notInSharedRead() : this.response;
  }
}

/**
 * Registers one endpoint of the contracts: schemas from the contract, the
 * permission rule checked before the handler, the answer serialized through the
 * response schema (so an extra column never leaks).
 */
export function route<E extends Endpoint>(app: FastifyInstance, deps: AppDeps, endpoint: E, opts: RouteOptions<E>): void {
  const registry = deps.routes;
  registry.push({ method: endpoint.method, path: endpoint.path, permission: opts.permission, endpoint });
  const shared =
    (opts.shareIdenticalReads ?? (endpoint.method === 'GET' && READ_PERMISSIONS.includes(opts.permission))) ? new SharedReads() : undefined;
  const refused = opts.refusalAs200 ? new WeakSet<FastifyRequest>() : undefined;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    ...opts.options,
    ...idSegmentsOr404(endpoint),
    ...(refused && {
      onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (refused.has(req)) reply.code(200);
        return payload;
      },
    }),
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      response: { [endpoint.status ?? 200]: endpoint.response },
      ...(opts.permission !== 'public' && { security: [{ bearerAuth: [] }] }),
    },
    handler: async (req, reply) => {
      const principal = await principalOf(deps, req);
      if (opts.permission !== 'public') {
        if (!principal) throw unauthorized();
        if (!allows(opts.permission, principal)) {
          req.log.warn({ userId: principal.userId, tenantId: principal.tenantId, permission: opts.permission }, 'access denied');
          throw forbidden(isSuperAdmin(principal) ? MSG.tenantOnly : undefined);
        }
      }
      const ctx = new RequestContext(deps, req, reply, principal, scopeOf(principal), shared !== undefined) as unknown as RouteContext<E>;
      const result =
        shared && principal
          ? await shared.run(sharedReadKey(req, principal), async () => markSharedAnswer(await opts.handler(ctx)))
          : await opts.handler(ctx);
      if (refused && isRefusal(result)) refused.add(req);
      reply.code(endpoint.status ?? 200);
      return result;
    },
  });
}
