import { hkdfSync } from 'node:crypto';

/** Derives an independent 32-byte key per purpose from APP_SECRET, so one secret serves all. */
export function deriveKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'vigil', purpose, 32));
}
