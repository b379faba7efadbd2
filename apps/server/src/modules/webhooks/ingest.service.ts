import { isIdSegment, WEBHOOK_MSG, webhookMessage, type WebhookMessage } from '@vigil/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../http/errors.ts';
import { commitGroup, REFUSED, type IngestResult, type Outcome, type PendingMessage } from './commit-group.ts';
import { GroupCommitter, type GroupLimits } from './group-commit.ts';
import { PortalCredentials, type VerifiedPortal } from './portal-credentials.ts';
import { firstReportAfter } from './report-plan.ts';
import { TOLERANCE_SECONDS, isTimestampFresh, readSignedHeaders, type SignedHeaders } from './signature.ts';

/** One answer for every authentication failure, so a caller learns nothing about which check failed. */
const rejected = () => unauthorized(WEBHOOK_MSG.unauthorized);
const MAX_ID = 2_147_483_647;

/**
 * A group stays small enough that its transaction (and so every member's answer) stays short:
 * at most 200 messages or 5,000 devices (one full message always fits alone).
 */
const LIMITS = { maxMessages: 200, maxWeight: 5_000 };
/** PostgreSQL: a queue of at least twice this many devices is shared among concurrent groups (group-commit.ts). */
const SPLIT_WEIGHT = 500;

interface Ingestion {
  credentials: PortalCredentials;
  committer: GroupCommitter<PendingMessage, Outcome>;
}

/** Per app (per process in production): the credentials cache and the group committer. */
const ingestions = new WeakMap<AppDeps, Ingestion>();

function ingestionOf(deps: AppDeps): Ingestion {
  let ingestion = ingestions.get(deps);
  if (!ingestion) {
    const limits: GroupLimits =
      deps.database.kind === 'pglite' ? { ...LIMITS, maxInFlight: 1 } : { ...LIMITS, maxInFlight: 4, splitWeight: SPLIT_WEIGHT };
    // Ingestion's reads and writes take the urgent lane: dashboard reads queue behind them, not ahead.
    ingestion = {
      credentials: new PortalCredentials(deps, deps.database.urgentDb),
      committer: new GroupCommitter((group) => commitGroup(deps, group), limits),
    };
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
    const issue = parsed.error.issues[0];
    throw badRequest(`${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`);
  }
  if (parsed.data.type === 'devices.reported') {
    const limit = new Date(deps.clock.now().getTime() + TOLERANCE_SECONDS * 1000);
    const index = firstReportAfter(parsed.data.data.devices, limit);
    if (index >= 0) throw badRequest(`data.devices.${index}.at: must not be more than 5 minutes in the future`);
  }
  return parsed.data;
}

/**
 * POST /v0/webhooks/portals/:id: verify, validate (a message failing either never joins a
 * group), then wait for the group commit that applies it; the answer follows that commit.
 */
export async function ingestWebhook(
  deps: AppDeps,
  input: { portalParam: string; headers: IncomingHttpHeaders; raw: Buffer },
): Promise<IngestResult> {
  const signed = readSignedHeaders(input.headers);
  if (!signed || !isTimestampFresh(signed.timestamp, deps.clock.now())) throw rejected();
  const portalId = isIdSegment(input.portalParam) ? Number(input.portalParam) : 0;
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
