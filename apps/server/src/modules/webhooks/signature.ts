import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Standard Webhooks verification (docs/decisions.md 23; docs/decisions.md 39, rule 7):
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

/** The HMAC key of a `whsec_` secret (decoded once per secret, not per message, by callers that cache it). */
export const signingKey = (secret: string) =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** signingKey as a KeyObject: callers that keep it per secret spare the key import on every HMAC. */
export const signingKeyObject = (secret: string): KeyObject => createSecretKey(signingKey(secret));

/**
 * Index of the key that made one of the header's signatures, or -1. Every pair is compared (no
 * early exit), so the time taken says nothing about which one matched.
 */
export function matchingKey(keys: (Buffer | KeyObject)[], headers: SignedHeaders, raw: Buffer): number {
  let matched = -1;
  for (let k = 0; k < keys.length; k++) {
    const expected = createHmac('sha256', keys[k]).update(`${headers.id}.${headers.timestampText}.`).update(raw).digest();
    for (const given of headers.signatures) {
      if (given.length === expected.length && timingSafeEqual(given, expected) && matched < 0) matched = k;
    }
  }
  return matched;
}

/** Whether any signature of the header was made with any of the secrets (current, and previous during rotation). */
export const isSignedByAny = (secrets: string[], headers: SignedHeaders, raw: Buffer): boolean =>
  matchingKey(secrets.map(signingKey), headers, raw) >= 0;
