import { usersEndpoints } from '@vigil/contracts';
import { route, type AppModule } from '../../http/route.ts';
import { sendInvitation } from './users.invitation.ts';
import * as service from './users.service.ts';

/** /v0/api/users: superAdmin over every tenant, Admin over its own (docs/decisions.md 37); others 403. */
export const usersModule: AppModule = (app, deps) => {
  route(app, deps, usersEndpoints.list, {
    permission: 'users:manage',
    handler: async ({ query, principal, tx }) => ({ data: await tx((t) => service.listUsers(t, service.reachOf(principal), query)) }),
  });

  route(app, deps, usersEndpoints.create, {
    permission: 'users:manage',
    handler: async ({ body, principal, tx, req }) => {
      const { user, invitation } = await tx((t) => service.createUser(t, principal, body, deps.clock.now()));
      req.log.info({ userId: principal.userId, tenantId: user.tenantId, targetUserId: user.id, action: 'user.create' }, 'user invited');
      await sendInvitation(deps, invitation);
      return { data: user };
    },
  });

  route(app, deps, usersEndpoints.get, {
    permission: 'users:manage',
    handler: async ({ params, principal, tx }) => ({
      data: service.publicUser(await tx((t) => service.visibleUser(t, principal, params.id))),
    }),
  });

  route(app, deps, usersEndpoints.update, {
    permission: 'users:manage',
    handler: async ({ params, body, principal, tx, req }) => {
      const user = await tx((t) => service.updateUser(t, principal, params.id, body, deps.clock.now(), deps.bus));
      req.log.info(
        { userId: principal.userId, tenantId: user.tenantId, targetUserId: user.id, fields: Object.keys(body), action: 'user.update' },
        'user updated',
      );
      return { data: user };
    },
  });

  route(app, deps, usersEndpoints.remove, {
    permission: 'users:manage',
    handler: async ({ params, principal, tx, req }) => {
      await tx((t) => service.deleteUser(t, principal, params.id, deps.clock.now(), deps.bus));
      req.log.info({ userId: principal.userId, targetUserId: params.id, action: 'user.deactivate' }, 'user deactivated');
      return { data: { ok: true as const } };
    },
  });

  route(app, deps, usersEndpoints.resendInvitation, {
    permission: 'users:manage',
    handler: async ({ params, principal, tx, req }) => {
      const invitation = await tx((t) => service.reinvite(t, principal, params.id, deps.clock.now()));
      req.log.info({ userId: principal.userId, targetUserId: invitation.userId, action: 'user.reinvite' }, 'invitation sent again');
      await sendInvitation(deps, invitation);
      return { data: { ok: true as const } };
    },
  });
};
