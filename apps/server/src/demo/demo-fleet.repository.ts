import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { DEMO_TENANT } from './demo-data.ts';

/** The demo tenant's portals and devices not removed, as the simulator starts them. */
export const demoFleet = (tx: Executor) =>
  queryRows<{
    portal_id: number;
    secret: string;
    heartbeat_timeout: number;
    external_id: string;
    name: string;
    device_type: number;
    device_model: string;
    status: number;
  }>(
    tx,
    sql`select p.id as portal_id, p.webhook_secret_enc as secret, t.heartbeat_timeout,
               d.external_id, d.name, d.device_type, d.device_model, d.status
          from tenants t
          join portals p on p.tenant_id = t.id and p.deleted_at is null
          join devices d on d.tenant_id = p.tenant_id and d.portal_id = p.id and d.removed_at is null
         where t.name = ${DEMO_TENANT.name} and t.deleted_at is null
         order by p.id, d.id`,
  );
