/**
 * The notifications phase's two receivers, both on 127.0.0.1: an SMTP server (`smtp-server`, the same
 * package the server's own mail tests use) that the bench server mails through (SMTP_URL), started
 * before the server; and an HTTP server that verifies each Standard Webhooks signature with the
 * channel's secret (set once the channel exists). Each keeps one record per arrival, with the time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';

export interface Arrival {
  /** performance.timeOrigin + performance.now() at arrival (ms since the epoch). */
  at: number;
  event: 'alert.opened' | 'alert.resolved' | 'alert.repeated' | 'test' | 'unknown';
  alertId: number | undefined;
  /** Webhook: the alert's createdAt from the payload. */
  alertCreatedAt?: string;
  /** Webhook: the portal id; email: the portal name from the subject. */
  portal: string | undefined;
  /** Webhook: the delivery id (the same on every retry). */
  webhookId?: string;
}

const nowMs = () => performance.timeOrigin + performance.now();

/** Quoted-printable decoding (RFC 2045): soft line breaks removed, =XX bytes restored. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** `[Vigil] {portal}: {N} devices offline` (opened, repeated) or `[Vigil] {portal}: back online` (resolved). */
export function mailArrival(raw: string, at: number): Arrival {
  const header = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(header)?.[1] ?? '';
  const m = /^\[Vigil\] (.*): (back online|\d+ devices? offline)$/.exec(subject.trim());
  const alertId = /alerts\/(\d+)/.exec(decodeQuotedPrintable(raw))?.[1];
  return {
    at,
    event: !m ? 'unknown' : m[2] === 'back online' ? 'alert.resolved' : 'alert.opened',
    alertId: alertId ? Number(alertId) : undefined,
    portal: m?.[1],
  };
}

export interface SmtpReceiver {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const arrivals: Arrival[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        arrivals.push(mailArrival(Buffer.concat(chunks).toString('utf8'), nowMs()));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface WebhookReceiver {
  url: string;
  arrivals: Arrival[];
  /** Requests whose signature did not verify (answered 401). */
  refused: number;
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let verifier: Webhook | undefined;
  const receiver = {
    url: '',
    arrivals: [] as Arrival[],
    refused: 0,
    setSecret: (secret: string) => (verifier = new Webhook(secret)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const at = nowMs();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: { type?: Arrival['event']; data?: { alert?: { id: number; customerId: number; createdAt: string } } };
      try {
        if (!verifier) throw new Error('no secret yet');
        payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
      } catch {
        receiver.refused++;
        res.statusCode = 401;
        return res.end();
      }
      const alert = payload.data?.alert;
      receiver.arrivals.push({
        at,
        event: payload.type ?? 'unknown',
        alertId: alert?.id,
        alertCreatedAt: alert?.createdAt,
        portal: alert ? String(alert.customerId) : undefined,
        webhookId: String(req.headers['webhook-id']),
      });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vigil`;
  return receiver;
}
