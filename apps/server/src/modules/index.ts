import type { AppModule } from '../http/route.ts';
import { healthModule } from './health/health.routes.ts';
import { authModule } from './auth/auth.routes.ts';
import { tenantsModule } from './tenants/tenants.routes.ts';
import { usersModule } from './users/users.routes.ts';
import { portalsModule } from './portals/portals.routes.ts';
import { webhooksModule } from './webhooks/webhooks.routes.ts';
import { devicesModule } from './devices/devices.routes.ts';
import { statsModule } from './stats/stats.routes.ts';
import { liveEventsModule } from './live-events/live-events.routes.ts';
import { casesModule } from './cases/cases.routes.ts';
import { commentsModule } from './comments/comments.routes.ts';
import { alertsModule } from './alerts/alerts.routes.ts';
import { licensesModule } from './licenses/licenses.routes.ts';
import { reportsModule } from './reports/reports.routes.ts';
import { billingModule } from './billing/billing.routes.ts';
import { clientConfigModule } from './client-config/client-config.routes.ts';
import { notificationsModule } from './notifications/notifications.routes.ts';
import { maintenanceModule } from './maintenance/maintenance.routes.ts';

/** Feature modules in registration order. Each adds its routes through http/route.ts. */
export const modules: AppModule[] = [
  healthModule,
  authModule,
  tenantsModule,
  usersModule,
  portalsModule,
  webhooksModule,
  devicesModule,
  statsModule,
  liveEventsModule,
  casesModule,
  commentsModule,
  alertsModule,
  licensesModule,
  reportsModule,
  billingModule,
  clientConfigModule,
  notificationsModule,
  maintenanceModule,
];
