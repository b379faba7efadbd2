import { caseEndpoints, CASE_MSG, CASE_STATUSES, CASE_COMPLETED } from '@vigil/contracts';
import { IdMarkStore } from '../../db/id-marks.ts';
import { badRequest } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import {
  changeCaseType,
  countCompletedThisQuarter,
  countOpenCasesByType,
  createCaseForPortal,
  getCase,
  listCaseDevices,
  listCases,
  visiblePortal,
} from './cases.service.ts';

export const casesModule: AppModule = (app, deps) => {
  const marks = new IdMarkStore(() => deps.clock.now().getTime());
  route(app, deps, caseEndpoints.list, {
    permission: 'read',
    handler: async (ctx) => ({ data: await ctx.readTx((reader) => listCases(reader, ctx.scope, ctx.query, undefined, marks)) }),
  });

  route(app, deps, caseEndpoints.sumup, {
    permission: 'read',
    handler: async (ctx) => {
      const counts = await ctx.readTx((reader) => countOpenCasesByType(reader, ctx.scope));
      const list = CASE_STATUSES.slice(0, CASE_COMPLETED).map((_, caseType) => ({ caseType, count: counts.get(caseType) ?? 0 }));
      return { data: { list, count: list.length } };
    },
  });

  route(app, deps, caseEndpoints.quarterCompleted, {
    permission: 'read',
    handler: async (ctx) => ({
      data: { count: await ctx.readTx((reader) => countCompletedThisQuarter(reader, ctx.scope, deps.clock.now())) },
    }),
  });

  route(app, deps, caseEndpoints.get, {
    permission: 'read',
    handler: async (ctx) => ({ data: await ctx.tx((tx) => getCase(tx, ctx.scope, ctx.params.id)) }),
  });

  route(app, deps, caseEndpoints.update, {
    permission: 'cases:write',
    handler: async (ctx) => {
      const caseType = ctx.body.caseType ?? ctx.body.status;
      // The body schema already refuses a patch with neither field; this only narrows the type.
      if (caseType === undefined) throw badRequest(CASE_MSG.caseType);
      return { data: await changeCaseType(ctx.tx, ctx.scope, ctx.params.id, caseType, deps.clock.now()) };
    },
  });

  route(app, deps, caseEndpoints.devices, {
    permission: 'read',
    handler: async (ctx) =>
      ctx.tx(async (tx) => {
        await getCase(tx, ctx.scope, ctx.params.id);
        return { data: await listCaseDevices(tx, ctx.scope, ctx.params.id, ctx.query) };
      }),
  });

  route(app, deps, caseEndpoints.listOfCustomer, {
    permission: 'read',
    handler: async (ctx) =>
      ctx.readTx(async (reader) => {
        await visiblePortal(reader, ctx.scope, ctx.params.id);
        return { data: await listCases(reader, ctx.scope, ctx.query, ctx.params.id) };
      }),
  });

  route(app, deps, caseEndpoints.create, {
    permission: 'cases:write',
    refusalAs200: true,
    handler: async (ctx) => {
      const answer = await createCaseForPortal(ctx.tx, ctx.scope, {
        portalId: ctx.params.id,
        bodyCustomerId: ctx.body?.customerId,
        userId: ctx.principal.userId,
        now: deps.clock.now(),
      });
      return { data: answer };
    },
  });
};
