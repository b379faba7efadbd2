import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Standard Webhooks verification (decisions.md §4, security guide rule 7):
 * HMAC-SHA256 over the raw bytes `{webhook-id}.{webhook-timestamp}.{body}` keyed
 * with the base64-decoded secret, compared in constant time against each `v1,`
 * signature of the header. Pure functions; the caller answers one 401 for all failures.
 */
export const TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = 'whsec_';
const MAX_SIGNATURES = 10;

export interface SignedHeaders {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The header exactly as sent: it is what was signed. */
  timestampText: string;
  /** The decoded `v1` signatures (other versions are ignored, as the specification says). */
  signatures: Buffer[];
}

const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** The three headers, or null when one is missing or malformed. */
export function readSignedHeaders(headers: IncomingHttpHeaders): SignedHeaders | null {
  const id = single(headers['webhook-id']);
  const timestamp = single(headers['webhook-timestamp']);
  const signature = single(headers['webhook-signature']);
  if (!id || id.length > 256 || !timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) return null;
  const signatures = signature
    .split(' ')
    .slice(0, MAX_SIGNATURES)
    .flatMap((entry) => {
      const [version, value] = entry.split(',', 2);
      return version === 'v1' && value ? [Buffer.from(value, 'base64')] : [];
    });
  if (signatures.length === 0) return null;
  return { id, timestamp: Number(timestamp), timestampText: timestamp, signatures };
}

/** Within 5 minutes of the server clock, in the past or the future. */
export const isTimestampFresh = (timestamp: number, now: Date) => Math.abs(now.getTime() / 1000 - timestamp) <= TOLERANCE_SECONDS;

function expectedSignature(secret: string, headers: SignedHeaders, raw: Buffer): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${headers.id}.${headers.timestampText}.`).update(raw).digest();
}

/** Whether any signature of the header was made with any of the secrets (current, and previous during rotation). */
export function isSignedByAny(secrets: string[], headers: SignedHeaders, raw: Buffer): boolean {
  let matched = false;
  for (const secret of secrets) {
    const expected = expectedSignature(secret, headers, raw);
    for (const given of headers.signatures) {
      // Every pair is compared (no early exit) so the time taken says nothing about which one matched.
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
  }
  return matched;
}
