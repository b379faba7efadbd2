import type { Executor } from '../db/client.ts';
import { mailOutbox } from '../db/schema/index.ts';
import type { Mail } from './mailer.ts';

/** Keeps a copy of every mail sent, with the way it went (SMTP or the local outbox). */
export async function recordMail(executor: Executor, mail: Mail, transport: 'smtp' | 'outbox'): Promise<void> {
  await executor.insert(mailOutbox).values({
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    transport,
  });
}
