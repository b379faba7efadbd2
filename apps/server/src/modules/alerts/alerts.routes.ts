import { alertEndpoints } from '@vigil/contracts';
import { IdMarkStore } from '../../db/id-marks.ts';
import { route, type AppModule } from '../../http/route.ts';
import { acknowledgeAlert, createAlertByHand, createCaseFromAlert, getAlert, listAlertDevices, listAlerts } from './alerts.service.ts';

/** Alerts (docs/web-pages.md "Pages", docs/web.md "Shell"; docs/decisions.md 29). The automatic rules run as jobs (jobs/registry.ts). */
export const alertsModule: AppModule = (app, deps) => {
  const marks = new IdMarkStore(() => deps.clock.now().getTime());
  route(app, deps, alertEndpoints.list, {
    permission: 'read',
    handler: async ({ query, scope, readTx }) => ({
      data: await readTx((reader) => listAlerts(reader, scope, query, deps.clock.now(), marks)),
    }),
  });

  route(app, deps, alertEndpoints.get, {
    permission: 'read',
    handler: async ({ params, scope, tx }) => ({ data: await tx((t) => getAlert(t, scope, params.id, deps.clock.now())) }),
  });

  route(app, deps, alertEndpoints.create, {
    permission: 'alerts:write',
    handler: async ({ body, scope, tx }) => ({
      data: await tx((t) =>
        createAlertByHand(t, scope, deps.bus, { portalId: body.customerId, alertType: body.alertType, now: deps.clock.now() }),
      ),
    }),
  });

  route(app, deps, alertEndpoints.devices, {
    permission: 'read',
    handler: async ({ params, query, scope, tx }) =>
      tx(async (t) => {
        await getAlert(t, scope, params.id, deps.clock.now());
        return { data: await listAlertDevices(t, scope, params.id, query) };
      }),
  });

  route(app, deps, alertEndpoints.createCase, {
    permission: 'alerts:write',
    refusalAs200: true,
    handler: async ({ params, principal, scope, tx }) => {
      const answer = await createCaseFromAlert(tx, scope, { alertId: params.id, userId: principal.userId, now: deps.clock.now() });
      return { data: answer };
    },
  });

  route(app, deps, alertEndpoints.ack, {
    permission: 'alerts:ack',
    handler: async ({ params, principal, scope, tx }) => ({
      data: await tx((t) =>
        acknowledgeAlert(t, scope, { alertId: params.id, userId: principal.userId, userName: principal.userName, now: deps.clock.now() }),
      ),
    }),
  });
};
