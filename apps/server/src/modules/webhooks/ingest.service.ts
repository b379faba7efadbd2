import { WEBHOOK_MSG, webhookMessage, type DeviceReport, type WebhookMessage } from '@vigil/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import type { Tx } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../http/errors.ts';
import { publishStatusChanges, type DeviceStatusChange } from '../devices/status-events.ts';
import * as repo from './ingest.repository.ts';
import { firstReportAfter, planReports, roundsOf } from './report-plan.ts';
import { TOLERANCE_SECONDS, isSignedByAny, isTimestampFresh, readSignedHeaders } from './signature.ts';

export interface IngestResult {
  accepted: number;
  duplicate?: true;
}

/** One answer for every authentication failure, so a caller learns nothing about which check failed. */
const rejected = () => unauthorized(WEBHOOK_MSG.unauthorized);
const MAX_ID = 2_147_483_647;

/** The portal's secrets that verify now: the current one, and the previous one until its grace period ends. */
async function verifiedPortal(deps: AppDeps, portalParam: string, headers: IncomingHttpHeaders, raw: Buffer) {
  const signed = readSignedHeaders(headers);
  if (!signed || !isTimestampFresh(signed.timestamp, deps.clock.now())) throw rejected();
  const portalId = /^\d{1,10}$/.test(portalParam) ? Number(portalParam) : 0;
  if (portalId < 1 || portalId > MAX_ID) throw rejected();
  const portal = await inScope(deps.database.db, allTenants, (tx) => repo.portalForWebhook(tx, portalId));
  if (!portal) throw rejected();
  const secrets = [deps.secretBox.open(portal.webhook_secret_enc)];
  const previousValid = portal.previous_secret_expires_at && new Date(portal.previous_secret_expires_at) > deps.clock.now();
  if (portal.previous_webhook_secret_enc && previousValid) secrets.push(deps.secretBox.open(portal.previous_webhook_secret_enc));
  if (!isSignedByAny(secrets, signed, raw)) throw rejected();
  return { tenantId: Number(portal.tenant_id), portalId, webhookId: signed.id };
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

type Target = { tenantId: number; portalId: number; now: Date };

async function applyReports(deps: AppDeps, tx: Tx, target: Target, reports: DeviceReport[]): Promise<void> {
  const plan = planReports(reports);
  const inventory = await repo.upsertInventory(tx, target, plan.inventory);
  const changes: DeviceStatusChange[] = inventory
    .filter((row) => row.created)
    .map((row) => ({ id: row.id, status: row.status, at: plan.reportsByDevice.get(row.external_id)![0]!.at }));
  for (const round of roundsOf(plan, inventory)) changes.push(...(await repo.applyReportRound(tx, target, round)));
  await publishStatusChanges(deps, tx, target, changes);
}

async function applyRemoval(deps: AppDeps, tx: Tx, target: Target, externalId: string): Promise<number> {
  const removedId = await repo.removeDevice(tx, target, externalId);
  if (removedId === undefined) return 0;
  await publishStatusChanges(deps, tx, target, [], { removed: [removedId] });
  return 1;
}

/**
 * POST /v0/webhooks/portals/:id (decisions.md §4): verify, validate, then apply
 * the message and record its id in ONE transaction, so a redelivery is either a
 * duplicate of a committed message or applied in full, never half.
 */
export async function ingestWebhook(deps: AppDeps, input: { portalParam: string; headers: IncomingHttpHeaders; raw: Buffer }): Promise<IngestResult> {
  const { tenantId, portalId, webhookId } = await verifiedPortal(deps, input.portalParam, input.headers, input.raw);
  const message = parseMessage(deps, input.raw);
  const target: Target = { tenantId, portalId, now: deps.clock.now() };
  const deviceCount = message.type === 'devices.reported' ? message.data.devices.length : 1;
  return inScope(deps.database.db, allTenants, async (tx) => {
    if (!(await repo.recordMessage(tx, { ...target, webhookId, deviceCount }))) return { accepted: 0, duplicate: true as const };
    if (message.type === 'devices.reported') {
      await applyReports(deps, tx, target, message.data.devices);
      return { accepted: deviceCount };
    }
    return { accepted: await applyRemoval(deps, tx, target, message.data.externalId) };
  });
}
