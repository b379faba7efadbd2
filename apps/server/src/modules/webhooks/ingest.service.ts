import { WEBHOOK_MSG, webhookMessage, type WebhookMessage } from '@vigil/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import type { Executor } from '../../db/client.ts';
import { preparedExecutor } from '../../db/prepared.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../http/errors.ts';
import { publishStatusChanges, publishStatusEvents, statusEvents, type DeviceStatusChange } from '../devices/status-events.ts';
import { GroupCommitter, type GroupLimits } from './group-commit.ts';
import * as repo from './ingest.repository.ts';
import { PortalCredentials, type VerifiedPortal } from './portal-credentials.ts';
import { deviceKey, firstReportAfter, planReports, roundsOf } from './report-plan.ts';
import { TOLERANCE_SECONDS, isTimestampFresh, readSignedHeaders, type SignedHeaders } from './signature.ts';

export interface IngestResult {
  accepted: number;
  duplicate?: true;
}

/** One answer for every authentication failure, so a caller learns nothing about which check failed. */
const rejected = () => unauthorized(WEBHOOK_MSG.unauthorized);
const MAX_ID = 2_147_483_647;

/**
 * A group stays small enough that its transaction (and so every member's answer) stays short:
 * at most 200 messages or 5,000 devices (one full message always fits alone).
 */
const LIMITS = { maxMessages: 200, maxWeight: 5_000 };

/** A verified, validated message waiting for its group. */
interface PendingMessage {
  key: string;
  weight: number;
  alone: boolean;
  record: repo.MessageToRecord;
  message: WebhookMessage;
}

/** The transaction refused the message: its portal or tenant is gone, or the secret that verified is no longer valid. */
const REFUSED = 'refused';
type Outcome = IngestResult | typeof REFUSED | Error;

interface Ingestion {
  credentials: PortalCredentials;
  committer: GroupCommitter<PendingMessage, Outcome>;
}

/** Per app (per process in production): the credentials cache and the group committer. */
const ingestions = new WeakMap<AppDeps, Ingestion>();

function ingestionOf(deps: AppDeps): Ingestion {
  let ingestion = ingestions.get(deps);
  if (!ingestion) {
    const limits: GroupLimits = { ...LIMITS, maxInFlight: deps.database.kind === 'pglite' ? 1 : 4 };
    // Ingestion's reads and writes take the urgent lane: dashboard reads queue behind them, not ahead.
    ingestion = { credentials: new PortalCredentials(deps, deps.database.urgentDb), committer: new GroupCommitter((group) => commitGroup(deps, group), limits) };
    ingestions.set(deps, ingestion);
  }
  return ingestion;
}

/** The whole message or a 400 naming the first bad path; nothing is applied before this passes. */
function parseMessage(deps: AppDeps, raw: Buffer): WebhookMessage {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest(WEBHOOK_MSG.invalidJson);
  }
  const parsed = webhookMessage.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`);
  }
  if (parsed.data.type === 'devices.reported') {
    const limit = new Date(deps.clock.now().getTime() + TOLERANCE_SECONDS * 1000);
    const index = firstReportAfter(parsed.data.data.devices, limit);
    if (index >= 0) throw badRequest(`data.devices.${index}.at: must not be more than 5 minutes in the future`);
  }
  return parsed.data;
}

/** Reports of every recorded `devices.reported` message of the group, as if applied one after the other. */
async function applyReports(deps: AppDeps, tx: Executor, now: Date, messages: PendingMessage[]): Promise<void> {
  const plan = planReports(
    messages.flatMap((m) => (m.message.type === 'devices.reported' ? [{ tenantId: m.record.tenantId, portalId: m.record.portalId, reports: m.message.data.devices }] : [])),
  );
  if (plan.inventory.externalIds.length === 0) return;
  const inventory = await repo.upsertInventory(tx, now, plan.inventory);
  const changes: repo.StatusChange[] = inventory
    .filter((row) => row.created)
    .map((row) => ({ id: row.id, tenantId: row.tenant_id, portalId: row.portal_id, status: row.status, at: plan.reportsByDevice.get(deviceKey(row.portal_id, row.external_id))![0]!.at }));
  for (const round of roundsOf(plan, inventory)) changes.push(...(await repo.applyReportRound(tx, now, round)));
  const byPortal = new Map<number, { tenantId: number; changes: DeviceStatusChange[] }>();
  for (const c of changes) {
    let portal = byPortal.get(c.portalId);
    if (!portal) byPortal.set(c.portalId, (portal = { tenantId: c.tenantId, changes: [] }));
    portal.changes.push({ id: c.id, status: c.status, at: c.at });
  }
  await publishStatusEvents(deps, tx, [...byPortal].flatMap(([portalId, portal]) => statusEvents(deps, { tenantId: portal.tenantId, portalId }, portal.changes)));
}

/**
 * Applies a group of messages and records their ids in ONE transaction (decisions.md §4): each
 * message is either a duplicate of a committed one or applied in full, never half. A removal is
 * always alone in its group (GroupCommitter `alone`), so its order against reports is kept.
 */
async function commitGroup(deps: AppDeps, group: PendingMessage[]): Promise<Outcome[]> {
  return inScope(deps.database.urgentDb, allTenants, async (scoped) => {
    // Every statement of the group is prepared (db/prepared.ts): PostgreSQL keeps a generic plan once it costs no more than a custom one.
    const tx = preparedExecutor(deps.database.prepared, scoped);
    const now = deps.clock.now();
    const outcomes = await repo.recordMessages(
      tx,
      group.map((m) => m.record),
      now,
    );
    const recorded = group.filter((_, i) => outcomes[i] === 'recorded');
    const removal = recorded.find((m) => m.message.type === 'device.removed');
    let removedCount = 0;
    if (removal && removal.message.type === 'device.removed') {
      const target = { tenantId: removal.record.tenantId, portalId: removal.record.portalId, now };
      const removedId = await repo.removeDevice(tx, target, removal.message.data.externalId);
      if (removedId !== undefined) {
        removedCount = 1;
        await publishStatusChanges(deps, tx, target, [], { removed: [removedId] });
      }
    }
    await applyReports(deps, tx, now, recorded);
    return group.map((m, i): Outcome => {
      if (outcomes[i] === 'refused') return REFUSED;
      if (outcomes[i] === 'duplicate') return { accepted: 0, duplicate: true };
      return { accepted: m.message.type === 'devices.reported' ? m.record.deviceCount : removedCount };
    });
  });
}

/**
 * POST /v0/webhooks/portals/:id: verify, validate (a message failing either never joins a
 * group), then wait for the group commit that applies it; the answer follows that commit.
 */
export async function ingestWebhook(deps: AppDeps, input: { portalParam: string; headers: IncomingHttpHeaders; raw: Buffer }): Promise<IngestResult> {
  const signed = readSignedHeaders(input.headers);
  if (!signed || !isTimestampFresh(signed.timestamp, deps.clock.now())) throw rejected();
  const portalId = /^\d{1,10}$/.test(input.portalParam) ? Number(input.portalParam) : 0;
  if (portalId < 1 || portalId > MAX_ID) throw rejected();
  // From here until its commit, this message counts as ingestion on its way: dashboard reads keep to their share.
  const arrived = deps.database.expectUrgent();
  try {
    return await ingestVerified(deps, portalId, signed, input.raw);
  } finally {
    arrived();
  }
}

async function ingestVerified(deps: AppDeps, portalId: number, signed: SignedHeaders, raw: Buffer): Promise<IngestResult> {
  const ingestion = ingestionOf(deps);
  let portal = await ingestion.credentials.verify(portalId, signed, raw);
  if (!portal) throw rejected();
  const message = parseMessage(deps, raw);
  const deviceCount = message.type === 'devices.reported' ? message.data.devices.length : 1;
  const submit = (verified: VerifiedPortal) =>
    ingestion.committer.submit({
      key: `${portalId}:${signed.id}`,
      weight: deviceCount,
      alone: message.type === 'device.removed',
      record: { tenantId: verified.tenantId, portalId, webhookId: signed.id, deviceCount, secretEnc: verified.secretEnc },
      message,
    });
  let outcome = await submit(portal);
  if (outcome === REFUSED && !portal.fresh) {
    // The cached credentials were out of date (a rotation, a deletion): verify once against fresh ones.
    ingestion.credentials.forget(portalId);
    portal = await ingestion.credentials.verify(portalId, signed, raw, true);
    if (!portal) throw rejected();
    outcome = await submit(portal);
  }
  if (outcome === REFUSED) throw rejected();
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
