import { licenseEndpoints } from '@vigil/contracts';
import { route, type AppModule } from '../../http/route.ts';
import { addLicense, listLicenses, removeLicense } from './licenses.service.ts';

/** Licenses of portals (docs/web-pages.md "Pages"; docs/decisions.md 32). */
export const licensesModule: AppModule = (app, deps) => {
  route(app, deps, licenseEndpoints.list, {
    permission: 'read',
    handler: async ({ query, scope, tx }) => ({ data: await tx((t) => listLicenses(t, scope, query, deps.clock.now())) }),
  });

  // The path holds the portal id only: a name there (as one client sent) fails the id schema, never a lookup by name.
  route(app, deps, licenseEndpoints.create, {
    permission: 'licenses:write',
    handler: async ({ params, body, scope, tx }) => {
      const input = {
        portalId: params.id,
        bodyCustomerId: body.customerId,
        deviceType: body.deviceType,
        deviceCount: body.deviceCount,
        terms: body.terms,
        startDate: body.startDate,
      };
      return { data: await tx((t) => addLicense(t, scope, deps.bus, input, deps.clock.now())) };
    },
  });

  route(app, deps, licenseEndpoints.remove, {
    permission: 'licenses:write',
    handler: async ({ params, scope, tx, principal, req }) => {
      await tx((t) => removeLicense(t, scope, params.id, deps.clock.now()));
      req.log.info(
        { userId: principal.userId, tenantId: principal.tenantId, licenseId: params.id, action: 'license.delete' },
        'license deleted',
      );
      return { data: { ok: true as const } };
    },
  });
};
