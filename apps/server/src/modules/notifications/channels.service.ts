import {
  NOTIFICATION_DEFAULTS,
  NOTIFY_MSG,
  targetSchemaOf,
  type CreateChannelBody,
  type NotificationChannel,
  type NotificationChannelType,
  type NotificationEvent,
  type UpdateChannelBody,
} from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { newWebhookSecret } from '../../security/webhook-secret.ts';
import * as repo from './channels.repository.ts';
import { checkTargetUrl, TargetRefused } from './targets.ts';

type Box = AppDeps['secretBox'];

/** The target as stored: email addresses as a JSON array, a URL as is; sealed. */
const sealTarget = (box: Box, target: string | string[]) => box.seal(JSON.stringify(target));
export const openTarget = (box: Box, sealed: string): string | string[] => JSON.parse(box.open(sealed)) as string | string[];

/** A channel as the API shows it; the secret only when `canSeeSecret` (Admin, Project Manager). */
export function present(box: Box, row: repo.ChannelRow, canSeeSecret: boolean, admins: Map<number, string[]>): NotificationChannel {
  const target = row.to_admins ? (admins.get(row.tenant_id) ?? []) : openTarget(box, row.target_enc);
  return {
    id: row.id,
    name: row.name,
    type: row.type as NotificationChannelType,
    target,
    enabled: row.enabled,
    events: row.events as NotificationEvent[],
    customerIds: row.portal_ids,
    delayMinutes: row.delay_minutes,
    repeatMinutes: row.repeat_minutes,
    secret: canSeeSecret && row.secret_enc ? box.open(row.secret_enc) : null,
  };
}

async function adminsOf(tx: Executor, rows: repo.ChannelRow[]) {
  return repo.adminEmails(tx, [...new Set(rows.filter((r) => r.to_admins).map((r) => r.tenant_id))]);
}

export async function listChannels(
  deps: AppDeps,
  tx: Executor,
  scope: Scope,
  query: Parameters<typeof repo.listChannels>[2],
  canSeeSecret: boolean,
): Promise<{ list: NotificationChannel[]; count: number }> {
  const { rows, count } = await repo.listChannels(tx, scope, query);
  const admins = await adminsOf(tx, rows);
  return { list: rows.map((r) => present(deps.secretBox, r, canSeeSecret, admins)), count };
}

export async function getChannel(
  deps: AppDeps,
  tx: Executor,
  scope: Scope,
  id: number,
  canSeeSecret: boolean,
): Promise<NotificationChannel> {
  const row = await repo.findChannel(tx, scope, id);
  if (!row) throw notFound();
  return present(deps.secretBox, row, canSeeSecret, await adminsOf(tx, [row]));
}

/** The channel row for internal use (sending a test); 404 when not the caller's. */
export async function channelRow(tx: Executor, scope: Scope, id: number): Promise<repo.ChannelRow> {
  const row = await repo.findChannel(tx, scope, id);
  if (!row) throw notFound();
  return row;
}

async function checkTarget(deps: AppDeps, type: NotificationChannelType, target: string | string[]): Promise<void> {
  if (type === 'email') return;
  try {
    await checkTargetUrl(String(target), deps.config.notifyAllowPrivateTargets);
  } catch (err) {
    if (err instanceof TargetRefused) throw badRequest(err.message);
    throw err;
  }
}

async function checkPortals(tx: Tx, tenantId: number, ids: number[]): Promise<void> {
  const found = await repo.existingPortalIds(tx, tenantId, ids);
  if (found.length !== ids.length) throw badRequest(NOTIFY_MSG.unknownCustomer);
}

export async function createChannel(deps: AppDeps, tx: Tx, tenantId: number, body: CreateChannelBody): Promise<number> {
  await checkTarget(deps, body.type, body.target);
  await checkPortals(tx, tenantId, body.customerIds);
  return insertChannelAs(deps, tx, tenantId, body, deps.clock.now());
}

export async function updateChannel(deps: AppDeps, tx: Tx, scope: Scope, id: number, body: UpdateChannelBody): Promise<void> {
  const row = await repo.findChannel(tx, scope, id, true);
  if (!row) throw notFound();
  const type = (body.type ?? row.type) as NotificationChannelType;
  let targetEnc = row.target_enc;
  let toAdmins = row.to_admins;
  if (body.target !== undefined) {
    const parsed = targetSchemaOf(type).safeParse(body.target);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? NOTIFY_MSG.urlTarget);
    const target = Array.isArray(parsed.data) ? [...new Set(parsed.data)] : parsed.data;
    await checkTarget(deps, type, target);
    targetEnc = sealTarget(deps.secretBox, target);
    toAdmins = false;
  }
  if (body.customerIds) await checkPortals(tx, row.tenant_id, body.customerIds);
  let secretEnc = row.secret_enc;
  if (type === 'webhook' && !secretEnc) secretEnc = deps.secretBox.seal(newWebhookSecret());
  if (type !== 'webhook') secretEnc = null;
  await repo.updateChannel(
    tx,
    row.tenant_id,
    id,
    {
      name: body.name ?? row.name,
      type,
      targetEnc,
      secretEnc,
      toAdmins,
      enabled: body.enabled ?? row.enabled,
      events: body.events ?? row.events,
      portalIds: body.customerIds ?? row.portal_ids,
      delayMinutes: body.delayMinutes ?? row.delay_minutes,
      repeatMinutes: body.repeatMinutes ?? row.repeat_minutes,
    },
    deps.clock.now(),
  );
}

export async function deleteChannel(deps: AppDeps, tx: Tx, scope: Scope, id: number): Promise<void> {
  const row = await repo.findChannel(tx, scope, id, true);
  if (!row) throw notFound();
  await repo.deleteChannel(tx, row.tenant_id, id, deps.clock.now());
}

export async function rotateSecret(deps: AppDeps, tx: Tx, scope: Scope, id: number): Promise<void> {
  const row = await repo.findChannel(tx, scope, id, true);
  if (!row) throw notFound();
  if (row.type !== 'webhook') throw badRequest('Only webhook channels have a signing secret.');
  await repo.updateChannel(
    tx,
    row.tenant_id,
    id,
    {
      name: row.name,
      type: row.type,
      targetEnc: row.target_enc,
      secretEnc: deps.secretBox.seal(newWebhookSecret()),
      toAdmins: row.to_admins,
      enabled: row.enabled,
      events: row.events,
      portalIds: row.portal_ids,
      delayMinutes: row.delay_minutes,
      repeatMinutes: row.repeat_minutes,
    },
    deps.clock.now(),
  );
}

/**
 * A new tenant's default channel (docs/notifications.md): enabled, email to the tenant's Admins as
 * they are at send time, `alert.opened` and `alert.resolved`, every portal, the default delay.
 */
export async function createDefaultChannel(deps: Pick<AppDeps, 'secretBox' | 'clock'>, tx: Executor, tenantId: number): Promise<number> {
  return repo.insertChannel(
    tx,
    tenantId,
    {
      name: NOTIFICATION_DEFAULTS.adminsChannelName,
      type: 'email',
      targetEnc: sealTarget(deps.secretBox, []),
      secretEnc: null,
      toAdmins: true,
      enabled: true,
      events: [...NOTIFICATION_DEFAULTS.events],
      portalIds: [],
      delayMinutes: NOTIFICATION_DEFAULTS.delayMinutes,
      repeatMinutes: NOTIFICATION_DEFAULTS.repeatMinutes,
    },
    deps.clock.now(),
  );
}

/** A channel with the given settings, checked or not (the demo's outbox channel is not). */
export async function insertChannelAs(
  deps: Pick<AppDeps, 'secretBox'>,
  tx: Executor,
  tenantId: number,
  body: CreateChannelBody,
  now: Date,
): Promise<number> {
  return repo.insertChannel(
    tx,
    tenantId,
    {
      name: body.name,
      type: body.type,
      targetEnc: sealTarget(deps.secretBox, body.target),
      secretEnc: body.type === 'webhook' ? deps.secretBox.seal(newWebhookSecret()) : null,
      toAdmins: false,
      enabled: body.enabled,
      events: body.events,
      portalIds: body.customerIds,
      delayMinutes: body.delayMinutes,
      repeatMinutes: body.repeatMinutes,
    },
    now,
  );
}
