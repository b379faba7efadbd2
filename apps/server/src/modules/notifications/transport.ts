import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { DeliveryEvent } from '@vigil/contracts';
import type { Mailer } from '../../mail/mailer.ts';
import { emailOf, slackMessageOf, teamsMessageOf, type PayloadData } from './messages.ts';
import { refuseLiteralPrivate, safeLookup, TargetRefused } from './targets.ts';

/** Every send ends within this time (connect, request and answer, or the SMTP exchange). */
export const SEND_TIMEOUT_MS = 10_000;

/** A failed attempt; `final` when retrying cannot help (a 4xx other than 408/429, a refused target). */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
  }
}

export interface SendInput {
  deliveryId: number;
  event: DeliveryEvent;
  /** The announcement's time (the delivery's creation): the payload's `timestamp`. */
  createdAt: Date;
  data: PayloadData;
  channelName: string;
  type: string;
  /** URL, or email addresses. */
  target: string | string[];
  secret: string | null;
}

export interface SendDeps {
  mailer: Mailer;
  allowPrivate: boolean;
}

/** The webhook body (docs/notifications.md "Payloads"). */
export const webhookBodyOf = (input: Pick<SendInput, 'event' | 'createdAt' | 'data'>) =>
  JSON.stringify({ type: input.event, timestamp: input.createdAt.toISOString(), data: input.data });

/** One attempt of one delivery. Resolves when the target accepted it; throws SendFailure otherwise. */
export async function sendOnce(deps: SendDeps, input: SendInput): Promise<void> {
  if (input.type === 'email') {
    const to = Array.isArray(input.target) ? input.target : [input.target];
    if (to.length === 0) throw new SendFailure('No recipient: the tenant has no active Admin.', true);
    const mail = emailOf(input.event, input.data, input.channelName);
    await withTimeout(deps.mailer.send({ to: to.join(', '), ...mail }), 'The mail server did not answer in time.').catch((err: unknown) => {
      if (err instanceof SendFailure) throw err;
      throw new SendFailure(`Mail not sent: ${(err as Error).message}`.slice(0, 500), false);
    });
    return;
  }
  const url = String(input.target);
  let body: string;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Vigil-Notifications/1' };
  if (input.type === 'webhook') {
    body = webhookBodyOf(input);
    const id = String(input.deliveryId);
    // The signature's time is the attempt's wall-clock time: receivers check it against theirs.
    const timestamp = new Date();
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(Math.floor(timestamp.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(input.secret ?? '').sign(id, timestamp, body);
  } else if (input.type === 'slack') {
    body = JSON.stringify(slackMessageOf(input.event, input.data, input.channelName));
  } else {
    body = JSON.stringify(teamsMessageOf(input.event, input.data, input.channelName));
  }
  await postJson(url, body, headers, deps.allowPrivate);
}

function withTimeout<T>(p: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SendFailure(message, false)), SEND_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A 2xx answer is a delivery; 408, 429 and 5xx are retried; any other status is final. */
export const isFinalStatus = (status: number) => status >= 300 && status < 500 && status !== 408 && status !== 429;

/** POST through a lookup that refuses private addresses; no redirects are followed. */
export function postJson(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<number> {
  try {
    refuseLiteralPrivate(url, allowPrivate);
  } catch (err) {
    return Promise.reject(new SendFailure((err as Error).message, true));
  }
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: safeLookup(allowPrivate),
        timeout: SEND_TIMEOUT_MS,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // Read (and drop) at most a little of the answer, then let the socket go.
        res.resume();
        res.on('end', () => {
          if (status >= 200 && status < 300) resolve(status);
          else reject(new SendFailure(`HTTP ${status}`, isFinalStatus(status)));
        });
        res.on('error', (err) => reject(new SendFailure(err.message, false)));
      },
    );
    const deadline = setTimeout(() => req.destroy(new SendFailure('No answer in time.', false)), SEND_TIMEOUT_MS);
    req.on('timeout', () => req.destroy(new SendFailure('No answer in time.', false)));
    req.on('error', (err: Error & { code?: string }) => {
      clearTimeout(deadline);
      if (err instanceof SendFailure) reject(err);
      else if (err.code === 'EPRIVATETARGET' || err instanceof TargetRefused) reject(new SendFailure(err.message, true));
      else reject(new SendFailure(err.message || err.code || 'Connection failed', false));
    });
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
