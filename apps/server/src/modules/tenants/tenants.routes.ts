import { tenantsEndpoints } from '@vigil/contracts';
import { forbidden } from '../../http/errors.ts';
import { hasTenant, isSuperAdmin } from '../../http/permissions.ts';
import { route, type AppModule } from '../../http/route.ts';
import * as service from './tenants.service.ts';

/** /v0/api/tenants (docs/decisions.md 36, 37). Billing's checkout routes live in the billing module. */
export const tenantsModule: AppModule = (app, deps) => {
  route(app, deps, tenantsEndpoints.list, {
    permission: 'tenants:manage',
    handler: async ({ query, tx }) => ({ data: await tx((t) => service.listTenants(t, query)) }),
  });

  route(app, deps, tenantsEndpoints.all, {
    permission: 'tenants:manage',
    handler: async ({ tx }) => ({ data: await tx((t) => service.listTenantOptions(t)) }),
  });

  // 'self' because a signed-in person with no tenant may create theirs; who may do what is decided here.
  route(app, deps, tenantsEndpoints.create, {
    permission: 'self',
    handler: async ({ body, principal, tx, req }) => {
      if (isSuperAdmin(principal)) {
        const tenant = await tx((t) => service.createTenantAsPlatform(deps, t, body));
        req.log.info({ userId: principal.userId, tenantId: tenant.id, action: 'tenant.create' }, 'tenant created');
        return { data: tenant };
      }
      if (hasTenant(principal) || principal.roles.length > 0) throw forbidden();
      const created = await service.createOwnTenant(deps, principal, body);
      req.log.info({ userId: principal.userId, tenantId: created.id, action: 'tenant.onboard' }, 'tenant created by its first Admin');
      return { data: created };
    },
  });

  route(app, deps, tenantsEndpoints.get, {
    permission: 'tenants:own',
    handler: async ({ params, principal, tx }) => ({ data: await tx((t) => service.visibleTenant(t, principal, params.id)) }),
  });

  route(app, deps, tenantsEndpoints.update, {
    permission: 'tenants:own',
    handler: async ({ params, body, principal, tx, req }) => {
      const tenant = await tx((t) => service.updateTenantInfo(t, principal, params.id, body, deps.clock.now(), deps.bus));
      req.log.info({ userId: principal.userId, tenantId: tenant.id, fields: Object.keys(body), action: 'tenant.update' }, 'tenant updated');
      return { data: tenant };
    },
  });

  route(app, deps, tenantsEndpoints.remove, {
    permission: 'tenants:manage',
    handler: async ({ params, principal, tx, req }) => {
      await tx((t) => service.deleteTenant(t, params.id, deps.clock.now(), deps.bus));
      req.log.info({ userId: principal.userId, tenantId: params.id, action: 'tenant.delete' }, 'tenant deleted');
      return { data: { ok: true as const } };
    },
  });
};
