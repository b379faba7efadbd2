import { describe, expect, it } from 'vitest';
import { FakeClock } from '../lib/clock.ts';
import { ACCESS_TOKEN_TTL_SECONDS, createAccessTokens } from './access-tokens.ts';

const SECRET = 'access-token-test-secret-0123456789abcdef';
const principal = { userId: 7, userName: 'Ana Admin', tenantId: 3, tenantName: 'Acme', roles: ['Admin' as const] };

describe('access tokens (verified tokens kept until they expire)', () => {
  it('answer the same principal on every use, and null from the second of exp on, like a first check', async () => {
    const clock = new FakeClock(new Date('2026-11-24T08:00:00.000Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign(principal);
    expect(await tokens.verify(token)).toEqual(principal);
    clock.advance((ACCESS_TOKEN_TTL_SECONDS - 1) * 1000);
    expect(await tokens.verify(token)).toEqual(principal);
    // A fresh verifier (nothing kept) and the one that kept the token agree at the boundary.
    clock.advance(1000);
    expect(await createAccessTokens(SECRET, clock).verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
    clock.set(new Date('2026-11-24T08:00:00.000Z'));
    expect(await createAccessTokens(SECRET, clock).verify(token)).toEqual(principal);
  });

  it('never keep a token that failed: a tampered copy of a kept token is refused', async () => {
    const clock = new FakeClock(new Date('2026-11-24T08:00:00.000Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign(principal);
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    forged.tenantId = 4;
    const tampered = [header, Buffer.from(JSON.stringify(forged)).toString('base64url'), signature].join('.');
    expect(await tokens.verify(tampered)).toBeNull();
    expect(await tokens.verify(tampered)).toBeNull();
    expect(await createAccessTokens('another-secret-another-secret-0123456789', clock).verify(token)).toBeNull();
  });

  it('hand out a principal no request can change for the others', async () => {
    const clock = new FakeClock(new Date('2026-11-24T08:00:00.000Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign(principal);
    const first = (await tokens.verify(token))!;
    expect(() => {
      (first as { tenantId: number }).tenantId = 4;
    }).toThrow();
    expect(() => first.roles.push('superAdmin')).toThrow();
    expect((await tokens.verify(token))!.tenantId).toBe(3);
  });
});
