import { deviceEndpoints } from '@vigil/contracts';
import { route, type AppModule } from '../../http/route.ts';
import * as devices from './devices.service.ts';
import { SortBounds } from './sort-bounds.ts';
import { NameMarkStore } from './name-marks.ts';

/** Devices (`/v0/api/devices`): the portal, case and alert device tables. */
export const devicesModule: AppModule = (app, deps) => {
  const kept = { marks: new NameMarkStore(() => deps.clock.now().getTime()), sortBounds: new SortBounds() };
  route(app, deps, deviceEndpoints.list, {
    permission: 'monitoring:read',
    handler: async ({ query, scope, readTx }) => ({ data: await readTx((reader) => devices.listDevices(reader, scope, query, kept)) }),
  });

  route(app, deps, deviceEndpoints.get, {
    permission: 'monitoring:read',
    handler: async ({ params, scope, tx }) => ({ data: await tx((t) => devices.getDevice(t, scope, params.id, deps.clock.now())) }),
  });

  route(app, deps, deviceEndpoints.history, {
    permission: 'monitoring:read',
    handler: async ({ params, query, scope, readTx }) => ({
      data: await readTx((reader) => devices.deviceHistory(reader, scope, params.id, query, deps.clock.now())),
    }),
  });
};
