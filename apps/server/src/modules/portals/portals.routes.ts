import { portalEndpoints } from '@vigil/contracts';
import { tenantScope } from '../../db/scope.ts';
import { route, type AppModule } from '../../http/route.ts';
import { allows } from '../../http/permissions.ts';
import * as portals from './portals.service.ts';

/** Portals (`/v0/api/customers...`): list, selects, header search, detail, add, edit, secret rotation. */
export const portalsModule: AppModule = (app, deps) => {
  route(app, deps, portalEndpoints.list, {
    permission: 'portals:read',
    handler: async ({ query, scope, readTx }) => ({
      data: await readTx((reader) =>
        portals.listPortals(deps, reader, { scope, q: query.filter.q, sort: query.sort, offset: query.offset, limit: query.limit }),
      ),
    }),
  });

  route(app, deps, portalEndpoints.all, {
    permission: 'portals:read',
    handler: async ({ scope, tx }) => ({ data: await tx((t) => portals.allPortalOptions(t, scope)) }),
  });

  route(app, deps, portalEndpoints.search, {
    permission: 'portals:read',
    handler: async ({ query, scope, tx }) => ({ data: await tx((t) => portals.searchPortals(t, scope, query.filter?.name)) }),
  });

  route(app, deps, portalEndpoints.get, {
    permission: 'portals:read',
    handler: async ({ params, principal, scope, tx }) => ({
      data: await tx((t) => portals.getPortal(deps, t, scope, params.id, allows('portals:write', principal))),
    }),
  });

  // Creating is for tenant users only (portals:write excludes the superAdmin), so the tenant is the caller's.
  route(app, deps, portalEndpoints.create, {
    permission: 'portals:write',
    handler: async ({ body, principal, tx }) => {
      const scope = tenantScope(principal.tenantId);
      const id = await tx((t) => portals.createPortal(deps, t, principal.tenantId, body));
      return { data: await tx((t) => portals.getPortal(deps, t, scope, id, true)) };
    },
  });

  route(app, deps, portalEndpoints.update, {
    permission: 'portals:write',
    handler: async ({ params, body, scope, tx }) => ({
      data: await tx(async (t) => {
        await portals.updatePortal(deps, t, scope, params.id, body);
        return portals.getPortal(deps, t, scope, params.id, true);
      }),
    }),
  });

  route(app, deps, portalEndpoints.rotateSecret, {
    permission: 'portals:write',
    handler: async ({ params, scope, tx }) => ({
      data: await tx(async (t) => {
        await portals.rotateWebhookSecret(deps, t, scope, params.id);
        return portals.getPortal(deps, t, scope, params.id, true);
      }),
    }),
  });
};
