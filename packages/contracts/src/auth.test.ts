import { describe, expect, it } from 'vitest';
import { AUTH_MSG, authEndpoints, passwordProblem, registerBody } from './auth.ts';
import { MSG } from './messages.ts';

const firstMessage = (input: unknown) => registerBody.safeParse(input).error?.issues[0]?.message;

describe('password policy', () => {
  it('wants 8..128 characters and no common password, with no composition rules', () => {
    expect(passwordProblem('1234567')).toBe(AUTH_MSG.passwordTooShort);
    expect(passwordProblem('x'.repeat(129))).toBe(AUTH_MSG.passwordTooLong);
    expect(passwordProblem('PassWord123')).toBe(AUTH_MSG.passwordCommon);
    expect(passwordProblem('alllowercaseletters')).toBeNull();
    expect(passwordProblem('x'.repeat(128))).toBeNull();
  });
});

describe('sign-up body', () => {
  const valid = { email: 'a@b.c', phone: '1', password: 'long-enough-pw' };
  it('reports missing name parts first, in form order', () => {
    expect(firstMessage({})).toBe(MSG.firstName);
    expect(firstMessage({ firstName: 'A' })).toBe(MSG.lastName);
    expect(firstMessage({ firstName: 'A', lastName: 'B' })).toBe(MSG.email);
    expect(firstMessage({ name: 'A B', email: 'a@b.c' })).toBe(MSG.phone);
  });
  it('accepts name alone or first and last name, and checks the confirmation', () => {
    expect(registerBody.safeParse({ ...valid, name: 'Solo' }).success).toBe(true);
    expect(registerBody.safeParse({ ...valid, firstName: 'A', lastName: 'B', confirmPassword: 'long-enough-pw' }).success).toBe(true);
    expect(firstMessage({ ...valid, name: 'A B', confirmPassword: 'other' })).toBe(MSG.passwordsMatchSignup);
    expect(firstMessage({ ...valid, name: 'A B', tenantId: 3 })).toBeDefined();
  });
});

describe('change password body', () => {
  it('uses the generic required message and the product mismatch message', () => {
    const body = authEndpoints.changePassword.body!;
    const base = { email: 'a@b.c', currentPassword: 'x', newPassword: 'new-password', confirmPassword: 'new-password' };
    expect(body.safeParse(base).success).toBe(true);
    expect(body.safeParse({ ...base, currentPassword: '' }).error?.issues[0]?.message).toBe(MSG.required);
    expect(body.safeParse({ ...base, confirmPassword: 'nope' }).error?.issues[0]?.message).toBe(MSG.passwordsMatch);
  });
});
