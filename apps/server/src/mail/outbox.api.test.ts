import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createLogger } from '../lib/logger.ts';
import { createMailer, outboxLine } from './mailer.ts';
import { tokenLink, verificationMail } from './templates.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const link = tokenLink('http://localhost:3000', 'verify-email', 'tok_abc-123.xyz');
const mail = { to: 'ada@example.com', ...verificationMail({ name: 'Ada', link }) };

describe('the local outbox', () => {
  it('logs one line naming the recipient and subject with the link as plain text', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    await createMailer({ from: 'Vigil <no-reply@vigil.local>', database: t.database, log }).send(mail);
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]) as { msg: string }).msg).toBe(`Mail to ada@example.com: ${mail.subject} — ${link}`);
    // The raw JSON line holds the link as typed: nothing escaped around it, so it can be copied from the log.
    expect(lines[0]).toContain(` — ${link}"`);
  });

  it('reads as a plain line in the pretty format', () => {
    const out: string[] = [];
    const log = createLogger('info', 'pretty', new Writable({ write: (chunk, _enc, done) => (out.push(String(chunk)), done()) }));
    log.info(outboxLine(mail));
    expect(out.join('')).toMatch(new RegExp(`INFO: Mail to ada@example\\.com: .* — ${link.replace(/[.?]/g, '\\$&')}\\n$`));
  });

  it('shows the text of a mail without a link', () => {
    expect(outboxLine({ to: 'b@example.com', subject: 'Hi', text: 'Hello,\n\nnothing to click.' })).toBe(
      'Mail to b@example.com: Hi — Hello, nothing to click.',
    );
  });
});
