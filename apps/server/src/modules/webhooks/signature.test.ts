import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../security/webhook-secret.ts';
import { isSignedByAny, isTimestampFresh, readSignedHeaders } from './signature.ts';

const secret = newWebhookSecret();
const now = new Date('2026-11-22T06:00:00.000Z');
const body = '{"type":"device.removed","data":{"externalId":"x"}}';

function headersFor(secrets: string[], id = 'msg_1', at = now, payload = body) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' '),
  };
}

describe('Standard Webhooks signature', () => {
  it('accepts what the standardwebhooks library signs, over the exact bytes', () => {
    const signed = readSignedHeaders(headersFor([secret]))!;
    expect(isSignedByAny([secret], signed, Buffer.from(body))).toBe(true);
    expect(isSignedByAny([secret], signed, Buffer.from(body + ' '))).toBe(false);
    expect(isSignedByAny([newWebhookSecret()], signed, Buffer.from(body))).toBe(false);
  });

  it('accepts any one valid signature among several, with any of the secrets', () => {
    const other = newWebhookSecret();
    const signed = readSignedHeaders(headersFor([other, secret]))!;
    expect(isSignedByAny([secret], signed, Buffer.from(body))).toBe(true);
    expect(isSignedByAny([newWebhookSecret(), other], signed, Buffer.from(body))).toBe(true);
  });

  it('binds the id and timestamp into the signature', () => {
    const h = headersFor([secret]);
    expect(isSignedByAny([secret], readSignedHeaders({ ...h, 'webhook-id': 'msg_2' })!, Buffer.from(body))).toBe(false);
    expect(
      isSignedByAny(
        [secret],
        readSignedHeaders({ ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 1) })!,
        Buffer.from(body),
      ),
    ).toBe(false);
  });

  it('reads nothing from missing or malformed headers', () => {
    const h = headersFor([secret]);
    expect(readSignedHeaders({ ...h, 'webhook-id': undefined })).toBeNull();
    expect(readSignedHeaders({ ...h, 'webhook-timestamp': '12.5' })).toBeNull();
    expect(readSignedHeaders({ ...h, 'webhook-signature': 'v1a,abc' })).toBeNull();
    expect(readSignedHeaders({ ...h, 'webhook-id': ['a', 'b'] })).toBeNull();
    expect(readSignedHeaders({ ...h, 'webhook-id': 'x'.repeat(257) })).toBeNull();
  });

  it('keeps timestamps within 5 minutes either way', () => {
    const ts = now.getTime() / 1000;
    expect(isTimestampFresh(ts - 300, now)).toBe(true);
    expect(isTimestampFresh(ts + 300, now)).toBe(true);
    expect(isTimestampFresh(ts - 301, now)).toBe(false);
    expect(isTimestampFresh(ts + 301, now)).toBe(false);
  });
});
