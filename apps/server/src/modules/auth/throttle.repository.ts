import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema/index.ts';

/** The `login_throttle` rows of the keys (throttle.ts decides what they mean). */
export async function blockedUntilOf(executor: Executor, keys: string[]): Promise<{ blockedUntil: Date | null }[]> {
  return executor.select({ blockedUntil: loginThrottle.blockedUntil }).from(loginThrottle).where(inArray(loginThrottle.key, keys));
}

/** Counts one failure on the key atomically (from 1 again when the last one is older than `forgetBefore`); returns the count. */
export async function countFailure(executor: Executor, key: string, forgetBefore: Date, now: Date): Promise<number> {
  const [row] = await executor
    .insert(loginThrottle)
    .values({ key, failures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.updatedAt} < ${forgetBefore.toISOString()}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
        updatedAt: now,
      },
    })
    .returning({ failures: loginThrottle.failures });
  return row?.failures ?? 1;
}

export async function setBlockedUntil(executor: Executor, key: string, blockedUntil: Date): Promise<void> {
  await executor
    .update(loginThrottle)
    .set({ blockedUntil })
    .where(inArray(loginThrottle.key, [key]));
}

/** A successful sign-in forgets the account's failures (the IP's stay: one good account must not unlock guessing at others). */
export async function clearFailures(executor: Executor, key: string): Promise<void> {
  await executor.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}
