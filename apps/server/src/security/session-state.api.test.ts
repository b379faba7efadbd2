import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.ts';
import { createTenant, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { SESSION_STATE_TTL_MS, createSessionState } from './session-state.ts';

/** The per-process cache itself, without the bus (its invalidation is covered by revocation.api.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function subject() {
  const user = await createUser(t, { tenant: await createTenant(t), roles: ['Admin'] });
  let now = 1_000;
  const state = createSessionState(t.database, t.clock, () => now);
  const bump = () =>
    t.database.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id));
  return { user, state, bump, advance: (ms: number) => (now += ms) };
}

describe('session state cache', () => {
  it('answers from the cache until the TTL, then reads again (the safety net for a missed event)', async () => {
    const s = await subject();
    const p = { userId: s.user.id, sv: 0 };
    expect(await s.state.isCurrent(p)).toBe(true);
    expect(s.state.isCurrent(p)).toBe(true); // a plain boolean: a map lookup
    await s.bump();
    s.advance(SESSION_STATE_TTL_MS - 1);
    expect(s.state.isCurrent(p)).toBe(true);
    s.advance(1);
    const again = s.state.isCurrent(p);
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe(false);
    expect(s.state.isCurrent({ userId: s.user.id, sv: 1 })).toBe(true);
  });

  it('forget drops the entry at once, and a read in flight is not kept', async () => {
    const s = await subject();
    const p = { userId: s.user.id, sv: 0 };
    expect(await s.state.isCurrent(p)).toBe(true);
    await s.bump();
    s.state.forget(s.user.id);
    expect(await s.state.isCurrent(p)).toBe(false);

    const inFlight = s.state.isCurrent({ userId: s.user.id, sv: 1 });
    s.state.forget(s.user.id);
    expect(await inFlight).toBe(true);
    expect(s.state.isCurrent({ userId: s.user.id, sv: 1 })).toBeInstanceOf(Promise);
  });

  it('refuses unknown and deactivated users', async () => {
    const s = await subject();
    expect(await s.state.isCurrent({ userId: 999_999 })).toBe(false);
    const [a, b] = [s.state.isCurrent({ userId: s.user.id }), s.state.isCurrent({ userId: s.user.id, sid: 'x' })];
    expect(await Promise.all([a, b])).toEqual([true, true]);
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, s.user.id));
    s.state.forget(s.user.id);
    expect(await s.state.isCurrent({ userId: s.user.id })).toBe(false);
  });
});
