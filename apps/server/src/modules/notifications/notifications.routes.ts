import { notificationChannelEndpoints, notificationEndpoints } from '@vigil/contracts';
import { tenantScope } from '../../db/scope.ts';
import { allows } from '../../http/permissions.ts';
import { route, type AppModule } from '../../http/route.ts';
import * as channels from './channels.service.ts';
import * as deliveries from './deliveries.service.ts';
import { startDeliveryPump } from './pump.ts';

/**
 * Notification channels and the delivery log (docs/notifications.md). Every tenant role reads them;
 * Admins and Project Managers manage channels and see webhook secrets. With periodic jobs on, this
 * process also sends due deliveries (pump.ts); announcing runs as a job (jobs/registry.ts).
 */
export const notificationsModule: AppModule = (app, deps) => {
  const canSeeSecret = (p: Parameters<typeof allows>[1]) => allows('notifications:write', p);

  route(app, deps, notificationChannelEndpoints.list, {
    permission: 'read',
    handler: async ({ query, principal, scope, tx }) => ({
      data: await tx((t) => channels.listChannels(deps, t, scope, query, canSeeSecret(principal))),
    }),
  });

  route(app, deps, notificationChannelEndpoints.get, {
    permission: 'read',
    handler: async ({ params, principal, scope, tx }) => ({
      data: await tx((t) => channels.getChannel(deps, t, scope, params.id, canSeeSecret(principal))),
    }),
  });

  // notifications:write excludes the superAdmin, so the tenant is the caller's.
  route(app, deps, notificationChannelEndpoints.create, {
    permission: 'notifications:write',
    handler: async ({ body, principal, tx }) => {
      const scope = tenantScope(principal.tenantId);
      return {
        data: await tx(async (t) => {
          const id = await channels.createChannel(deps, t, principal.tenantId, body);
          return channels.getChannel(deps, t, scope, id, true);
        }),
      };
    },
  });

  route(app, deps, notificationChannelEndpoints.update, {
    permission: 'notifications:write',
    handler: async ({ params, body, scope, tx }) => ({
      data: await tx(async (t) => {
        await channels.updateChannel(deps, t, scope, params.id, body);
        return channels.getChannel(deps, t, scope, params.id, true);
      }),
    }),
  });

  route(app, deps, notificationChannelEndpoints.remove, {
    permission: 'notifications:write',
    handler: async ({ params, scope, tx }) => {
      await tx((t) => channels.deleteChannel(deps, t, scope, params.id));
      return { data: { ok: true as const } };
    },
  });

  route(app, deps, notificationChannelEndpoints.test, {
    permission: 'notifications:write',
    handler: async ({ params, scope, tx }) => {
      const channel = await tx((t) => channels.channelRow(t, scope, params.id));
      return { data: await deliveries.sendTest(deps, tx, channel) };
    },
  });

  route(app, deps, notificationChannelEndpoints.rotateSecret, {
    permission: 'notifications:write',
    handler: async ({ params, scope, tx }) => ({
      data: await tx(async (t) => {
        await channels.rotateSecret(deps, t, scope, params.id);
        return channels.getChannel(deps, t, scope, params.id, true);
      }),
    }),
  });

  route(app, deps, notificationEndpoints.list, {
    permission: 'read',
    handler: async ({ query, scope, tx }) => ({ data: await tx((t) => deliveries.listDeliveries(t, scope, query)) }),
  });

  if (deps.jobs) {
    const pump = startDeliveryPump(deps);
    app.addHook('onClose', async () => pump.stop());
  }
};
