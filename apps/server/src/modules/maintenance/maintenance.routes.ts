import { maintenanceEndpoints } from '@vigil/contracts';
import { tenantScope } from '../../db/scope.ts';
import { route, type AppModule } from '../../http/route.ts';
import * as windows from './maintenance.service.ts';

/**
 * Maintenance windows (docs/maintenance.md). Every tenant role and the superAdmin read them; Admins and
 * Project Managers schedule, edit and delete them (maintenance:write, which excludes the superAdmin, so
 * the tenant of a write is the caller's). The job that applies them is jobs/maintenance.job.ts.
 */
export const maintenanceModule: AppModule = (app, deps) => {
  route(app, deps, maintenanceEndpoints.list, {
    permission: 'monitoring:read',
    handler: async ({ query, scope, tx }) => ({ data: await tx((t) => windows.listWindows(deps, t, scope, query)) }),
  });

  route(app, deps, maintenanceEndpoints.get, {
    permission: 'monitoring:read',
    handler: async ({ params, scope, tx }) => ({ data: await tx((t) => windows.getWindow(deps, t, scope, params.id)) }),
  });

  route(app, deps, maintenanceEndpoints.create, {
    permission: 'maintenance:write',
    handler: async ({ body, principal, tx }) => ({
      data: await tx(async (t) => {
        const id = await windows.createWindow(deps, t, principal, body);
        return windows.getWindow(deps, t, tenantScope(principal.tenantId), id);
      }),
    }),
  });

  route(app, deps, maintenanceEndpoints.update, {
    permission: 'maintenance:write',
    handler: async ({ params, body, scope, tx }) => ({
      data: await tx(async (t) => {
        await windows.updateWindow(deps, t, scope, params.id, body);
        return windows.getWindow(deps, t, scope, params.id);
      }),
    }),
  });

  route(app, deps, maintenanceEndpoints.remove, {
    permission: 'maintenance:write',
    handler: async ({ params, scope, tx }) => {
      await tx((t) => windows.deleteWindow(deps, t, scope, params.id));
      return { data: { ok: true as const } };
    },
  });
};
