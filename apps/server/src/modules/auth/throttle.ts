import { AUTH_MSG } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { blockedUntilOf, countFailure, setBlockedUntil } from './throttle.repository.ts';

export { clearFailures } from './throttle.repository.ts';

/**
 * Sign-in throttling (docs/decisions.md 39, rule 5): growing delays per account and per IP,
 * stored in `login_throttle` so every process sees the same state. Never a permanent
 * lockout: the delay is capped and failures are forgotten after a quiet hour.
 */
export interface ThrottleRule {
  /** Failures before the first delay (the Nth failure blocks 1 s, then doubling). */
  freeFailures: number;
}

/** An account is one person: short leash. An IP may be a whole office behind NAT: more room. */
export const ACCOUNT_RULE: ThrottleRule = { freeFailures: 5 };
export const IP_RULE: ThrottleRule = { freeFailures: 20 };
export const MAX_DELAY_MS = 15 * 60_000;
/** Failures older than this (since the last one) start counting from zero again. */
export const FORGET_AFTER_MS = 60 * 60_000;

export const accountKey = (email: string) => `acct:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** Delay after the n-th consecutive failure: 0 before the threshold, then 1 s, 2 s, 4 s, ... capped at 15 min. */
export function delayAfter(failures: number, rule: ThrottleRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(2 ** (failures - rule.freeFailures) * 1000, MAX_DELAY_MS);
}

/** "32 seconds", "1 second", "15 minutes": rounded up so the user never retries too early. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** Throws 429 RATE_LIMITED (with Retry-After) while any of the keys is blocked. */
export async function assertNotThrottled(executor: Executor, keys: string[], now: Date): Promise<void> {
  const rows = await blockedUntilOf(executor, keys);
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
  const wait = until - now.getTime();
  if (wait > 0) {
    throw new AppError('RATE_LIMITED', AUTH_MSG.tooManyAttempts(waitText(wait)), { 'retry-after': String(Math.ceil(wait / 1000)) });
  }
}

/** Counts one failure on the key (atomically, so concurrent failures all count) and sets its block. */
export async function recordFailure(executor: Executor, key: string, rule: ThrottleRule, now: Date): Promise<number> {
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_MS);
  const failures = await countFailure(executor, key, forgetBefore, now);
  const delay = delayAfter(failures, rule);
  if (delay > 0) await setBlockedUntil(executor, key, new Date(now.getTime() + delay));
  return failures;
}
