import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormatFor } from './logger.ts';

const capture = () => {
  const out: string[] = [];
  return { out, stream: new Writable({ write: (chunk, _enc, done) => (out.push(String(chunk)), done()) }) };
};

describe('log format', () => {
  it('is pretty at a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });

  it('writes one readable line per record in pretty, one JSON object in json, redacting secrets in both', () => {
    const pretty = capture();
    createLogger('info', 'pretty', pretty.stream as never).info({ user: { password: 'hunter22' }, userId: 7 }, 'sign-in');
    expect(pretty.out.join('')).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: sign-in \{.*"userId":7.*\}\n$/);
    expect(pretty.out.join('')).not.toContain('hunter22');
    const json = capture();
    createLogger('info', 'json', json.stream as never).info({ user: { password: 'hunter22' } }, 'sign-in');
    expect(JSON.parse(json.out.join(''))).toMatchObject({ level: 30, msg: 'sign-in', user: { password: '[redacted]' } });
  });
});
