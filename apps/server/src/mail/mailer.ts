import nodemailer, { type TransportOptions } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import { recordMail } from './outbox.repository.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * The local outbox's log line: who, what, and the mail's links as plain text (to open from the terminal);
 * a mail without a link shows its text.
 */
export function outboxLine(mail: Mail): string {
  const links = mail.text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  return `Mail to ${mail.to}: ${mail.subject} — ${links.length ? links.join(' ') : mail.text.replace(/\s+/g, ' ').trim()}`;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise the local outbox
 * (a table, with the mail's text in the server log) so the flows work on one machine.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; database: Database; log: FastifyBaseLogger }): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport({
        url: opts.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as TransportOptions)
    : null;
  return {
    async send(mail) {
      if (transport) {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } else {
        opts.log.info(outboxLine(mail));
      }
      await recordMail(opts.database.db, mail, transport ? 'smtp' : 'outbox');
    },
  };
}
