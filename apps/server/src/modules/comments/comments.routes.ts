import { commentEndpoints } from '@vigil/contracts';
import { route, type AppModule } from '../../http/route.ts';
import { addComment, editComment, listComments, removeComment, requireCase } from './comments.service.ts';

/** Comments of cases (docs/web-pages.md "Pages", docs/product.md "Calls"; docs/decisions.md 31, 37). */
export const commentsModule: AppModule = (app, deps) => {
  route(app, deps, commentEndpoints.list, {
    permission: 'read',
    handler: async ({ params, query, scope, tx }) =>
      tx(async (t) => {
        await requireCase(t, scope, params.caseId);
        return { data: await listComments(t, scope, params.caseId, query) };
      }),
  });

  route(app, deps, commentEndpoints.create, {
    permission: 'comments:write',
    handler: async ({ params, body, principal, scope, tx }) => {
      const input = { pathUserId: params.userId, caseId: params.caseId, content: body.content, now: deps.clock.now() };
      return { data: await tx((t) => addComment(t, scope, principal, input)) };
    },
  });

  route(app, deps, commentEndpoints.update, {
    permission: 'comments:write',
    handler: async ({ params, body, principal, scope, tx }) => ({
      data: await tx((t) => editComment(t, scope, principal, params.id, body.content, deps.clock.now())),
    }),
  });

  route(app, deps, commentEndpoints.remove, {
    permission: 'comments:write',
    handler: async ({ params, principal, scope, tx, req }) => {
      await tx((t) => removeComment(t, scope, principal, params.id));
      req.log.info(
        { userId: principal.userId, tenantId: principal.tenantId, commentId: params.id, action: 'comment.delete' },
        'comment deleted',
      );
      return { data: { ok: true as const } };
    },
  });
};
