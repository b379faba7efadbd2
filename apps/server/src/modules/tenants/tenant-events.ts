import type { Executor } from '../../db/client.ts';
import type { EventBus } from '../../events/bus.ts';
import { TOPICS, type TenantChangedEvent } from '../../events/topics.ts';

export type TenantsBus = Pick<EventBus, 'publish'>;

/**
 * Tells every process, at the commit of `executor`'s transaction, that the tenant's settings changed
 * or that it was deleted: what a process derived from them (the kept reliability trend,
 * docs/history.md "Trends") goes.
 */
export async function announceTenantChanged(bus: TenantsBus, executor: Executor, tenantId: number): Promise<void> {
  await bus.publish(TOPICS.tenantChanged, { tenantId } satisfies TenantChangedEvent, executor);
}
