import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { queryRows } from '../../../src/db/client.ts';
import type { TestApp } from '../../harness.ts';

/**
 * Test helpers that play the device cloud: messages signed by the real
 * `standardwebhooks` library, sent through HTTP. Used by the monitoring tests only.
 */
export interface SendOptions {
  /** Defaults to a fresh id per message. */
  id?: string;
  /** The signing time (webhook-timestamp); defaults to the fake clock's now. */
  signedAt?: Date;
  /** Secrets to sign with; every one adds a signature to the header. */
  secrets?: string[];
  headers?: Record<string, string>;
  rawBody?: string;
}

export interface DeviceInput {
  externalId: string;
  name?: string;
  deviceType?: number;
  deviceModel?: string;
  status: 0 | 1;
  at: Date | string;
}

export const reported = (devices: DeviceInput[]) => ({
  type: 'devices.reported',
  data: {
    devices: devices.map((d) => ({
      externalId: d.externalId,
      name: d.name ?? `Device ${d.externalId}`,
      deviceType: d.deviceType ?? 0,
      deviceModel: d.deviceModel ?? 'Model X',
      status: d.status,
      at: typeof d.at === 'string' ? d.at : d.at.toISOString(),
    })),
  },
});

export const removed = (externalId: string) => ({ type: 'device.removed', data: { externalId } });

export function signatureHeaders(secrets: string[], id: string, signedAt: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, signedAt, body)).join(' '),
  };
}

export async function sendWebhook(
  t: TestApp,
  portal: { id: number | string; webhookSecret: string },
  payload: unknown,
  opts: SendOptions = {},
) {
  const body = opts.rawBody ?? JSON.stringify(payload);
  const id = opts.id ?? `msg_${randomUUID()}`;
  const headers = {
    'content-type': 'application/json',
    ...signatureHeaders(opts.secrets ?? [portal.webhookSecret], id, opts.signedAt ?? t.clock.now(), body),
    ...opts.headers,
  };
  const res = await t.app.inject({ method: 'POST', url: `/v0/webhooks/portals/${portal.id}`, headers, payload: body });
  return {
    status: res.statusCode,
    body: res.json<{ data?: { accepted: number; duplicate?: boolean }; error?: { code: string; msg: string } }>(),
  };
}

export interface DeviceState {
  id: number;
  external_id: string;
  name: string;
  device_type: number;
  status: number;
  last_report_at: string;
  last_online: string | null;
  status_since: string;
  first_seen_at: string;
  removed_at: string | null;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export async function deviceState(t: TestApp, portalId: number, externalId: string): Promise<DeviceState | undefined> {
  const [row] = await queryRows<DeviceState>(
    t.database.db,
    sql`select id, external_id, name, device_type, status, last_report_at, last_online, status_since, first_seen_at, removed_at from devices where portal_id = ${portalId} and external_id = ${externalId}`,
  );
  if (!row) return undefined;
  return {
    ...row,
    last_report_at: iso(row.last_report_at)!,
    last_online: iso(row.last_online),
    status_since: iso(row.status_since)!,
    first_seen_at: iso(row.first_seen_at)!,
    removed_at: iso(row.removed_at),
  };
}

export async function periodsOf(t: TestApp, deviceId: number) {
  const rows = await queryRows<{ status: number; started_at: string; ended_at: string | null }>(
    t.database.db,
    sql`select status, started_at, ended_at from device_status_periods where device_id = ${deviceId} order by started_at, id`,
  );
  return rows.map((r) => ({ status: Number(r.status), from: iso(r.started_at), to: iso(r.ended_at) }));
}

export async function countRows(
  t: TestApp,
  table: 'devices' | 'device_status_periods' | 'late_device_reports' | 'webhook_messages',
  portalId?: number,
) {
  const where =
    portalId === undefined
      ? sql``
      : table === 'late_device_reports'
        ? sql`where device_id in (select id from devices where portal_id = ${portalId})`
        : sql`where portal_id = ${portalId}`;
  const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)} ${where}`);
  return Number(row.n);
}

/** The id of the device a portal knows by `externalId` (reported through the webhook first). */
export async function deviceIdOf(t: TestApp, portal: { id: number }, externalId: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    t.database.db,
    sql`select id from devices where portal_id = ${portal.id} and external_id = ${externalId}`,
  );
  return Number(row.id);
}
