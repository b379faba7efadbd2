import type { WebhookMessage } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { preparedExecutor } from '../../db/prepared.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { publishStatusChanges, publishStatusEvents, statusEvents, type DeviceStatusChange } from '../devices/index.ts';
import * as repo from './ingest.repository.ts';
import { recordAndApply } from './one-pass.repository.ts';
import { deviceKey, planReports, roundsOf, type ReportPlan } from './report-plan.ts';

export interface IngestResult {
  accepted: number;
  duplicate?: true;
}

/** A verified, validated message waiting for its group. */
export interface PendingMessage {
  key: string;
  weight: number;
  alone: boolean;
  record: repo.MessageToRecord;
  message: WebhookMessage;
}

/** The transaction refused the message: its portal or tenant is gone, or the secret that verified is no longer valid. */
export const REFUSED = 'refused';
export type Outcome = IngestResult | typeof REFUSED | Error;

const planOf = (messages: PendingMessage[]): ReportPlan =>
  planReports(
    messages.flatMap((m) =>
      m.message.type === 'devices.reported'
        ? [{ tenantId: m.record.tenantId, portalId: m.record.portalId, reports: m.message.data.devices }]
        : [],
    ),
  );

/** Every device of the plan has exactly one report: the group's reports are one round, which one statement can apply. */
const oneReportPerDevice = (plan: ReportPlan) => [...plan.reportsByDevice.values()].every((reports) => reports.length === 1);

/** Reports of a plan, as if its messages were applied one after the other (inventory, then one statement per round). */
async function applyPlan(tx: Executor, now: Date, plan: ReportPlan): Promise<repo.StatusChange[]> {
  if (plan.inventory.externalIds.length === 0) return [];
  const inventory = await repo.upsertInventory(tx, now, plan.inventory);
  const changes: repo.StatusChange[] = inventory
    .filter((row) => row.created)
    .map((row) => ({
      id: row.id,
      tenantId: row.tenant_id,
      portalId: row.portal_id,
      status: row.status,
      at: plan.reportsByDevice.get(deviceKey(row.portal_id, row.external_id))![0].at,
    }));
  for (const round of roundsOf(plan, inventory)) changes.push(...(await repo.applyReportRound(tx, now, round)));
  return changes;
}

/** `devices.status` events of the group's changes, one set per portal, delivered at commit. */
async function publishChanges(deps: AppDeps, tx: Executor, changes: repo.StatusChange[]): Promise<void> {
  const byPortal = new Map<number, { tenantId: number; changes: DeviceStatusChange[] }>();
  for (const c of changes) {
    let portal = byPortal.get(c.portalId);
    if (!portal) byPortal.set(c.portalId, (portal = { tenantId: c.tenantId, changes: [] }));
    portal.changes.push({ id: c.id, status: c.status, at: c.at });
  }
  await publishStatusEvents(
    deps,
    tx,
    [...byPortal].flatMap(([portalId, portal]) => statusEvents(deps, { tenantId: portal.tenantId, portalId }, portal.changes)),
  );
}

/**
 * Records the group's ids and applies its reports. On PGlite a group whose devices are each
 * reported once takes one statement (one-pass.repository.ts); when one of its messages turns out
 * a duplicate or refused, that statement applies nothing and the recorded messages are applied
 * here the general way. Otherwise: record, then inventory and rounds.
 */
async function recordAndApplyReports(deps: AppDeps, tx: Executor, now: Date, group: PendingMessage[]): Promise<repo.RecordOutcome[]> {
  const records = group.map((m) => m.record);
  if (deps.database.kind === 'pglite' && group.every((m) => m.message.type === 'devices.reported')) {
    const plan = planOf(group);
    if (oneReportPerDevice(plan)) {
      const pass = await recordAndApply(tx, records, plan.inventory, now);
      const changes = pass.applied
        ? pass.changes
        : await applyPlan(tx, now, planOf(group.filter((_, i) => pass.outcomes[i] === 'recorded')));
      await publishChanges(deps, tx, changes);
      return pass.outcomes;
    }
  }
  const outcomes = await repo.recordMessages(tx, records, now);
  const recorded = group.filter((_, i) => outcomes[i] === 'recorded');
  await publishChanges(deps, tx, await applyPlan(tx, now, planOf(recorded)));
  return outcomes;
}

/**
 * Applies a group of messages and records their ids in ONE transaction (docs/decisions.md 39, rule 7): each
 * message is either a duplicate of a committed one or applied in full, never half. A removal is
 * always alone in its group (GroupCommitter `alone`), so its order against reports is kept.
 */
export async function commitGroup(deps: AppDeps, group: PendingMessage[]): Promise<Outcome[]> {
  return inScope(deps.database.urgentDb, allTenants, async (scoped) => {
    // Every statement of the group is prepared (db/prepared.ts): PostgreSQL keeps a generic plan once it costs no more than a custom one.
    const tx = preparedExecutor(deps.database.prepared, scoped);
    const now = deps.clock.now();
    const removal = group.find((m) => m.message.type === 'device.removed');
    if (removal && removal.message.type === 'device.removed') {
      // The committer retries a failed group message by message: a removal found among others is applied alone then.
      if (group.length > 1) throw new Error('a device.removed message is applied in a group of its own');
      const [outcome] = await repo.recordMessages(tx, [removal.record], now);
      if (outcome !== 'recorded') return [outcome === 'refused' ? REFUSED : { accepted: 0, duplicate: true }];
      const target = { tenantId: removal.record.tenantId, portalId: removal.record.portalId, now };
      const removedId = await repo.removeDevice(tx, target, removal.message.data.externalId);
      if (removedId !== undefined) await publishStatusChanges(deps, tx, target, [], { removed: [removedId] });
      return [{ accepted: removedId === undefined ? 0 : 1 }];
    }
    const outcomes = await recordAndApplyReports(deps, tx, now, group);
    return group.map((m, i): Outcome => {
      if (outcomes[i] === 'refused') return REFUSED;
      if (outcomes[i] === 'duplicate') return { accepted: 0, duplicate: true };
      return { accepted: m.record.deviceCount };
    });
  });
}
