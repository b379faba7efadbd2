import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as a real SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The raw message with quoted-printable decoded (links are readable). */
  decoded: string;
}

/** Quoted-printable decoding (RFC 2045): soft line breaks removed, =XX bytes restored. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A local SMTP server on a random port that keeps every message: the tests' stand-in
 * for the outside mail service (docs/architecture.md "Tests": fake only what is outside the process).
 */
export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The newest message to `to`, waiting up to `timeoutMs` for it to arrive. */
    async waitFor(to: string, since = 0, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received
          .slice(since)
          .reverse()
          .find((m) => m.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first `{PUBLIC_URL}/auth/<page>?token=...` link in a received mail. */
export function linkToken(mail: ReceivedMail, publicUrl: string, page: 'verify-email' | 'password-confirmation'): string {
  const escaped = `${publicUrl}/auth/${page}?token=`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = mail.decoded.match(new RegExp(`${escaped}([A-Za-z0-9_%-]+)`));
  if (!match?.[1]) throw new Error(`no ${page} link in the mail`);
  return decodeURIComponent(match[1]);
}
