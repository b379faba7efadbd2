import { describe, expect, it } from 'vitest';
import { authReducer, homeOf, signedOut, signedOutState, tokensReceived } from './authSlice.ts';

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (claims: object) => `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;

describe('auth state', () => {
  it('holds exactly the documented fields, tenantId -1 and no refresh token when signed out', () => {
    expect(Object.keys(signedOutState).sort()).toEqual([
      'accessTaken',
      'refreshTaken',
      'roles',
      'tenantId',
      'tenantName',
      'userId',
      'userName',
    ]);
    expect(signedOutState).toMatchObject({ tenantId: -1, roles: [], refreshTaken: '' });
  });

  it('takes the claims from the access token and never stores the refresh token', () => {
    const accessToken = token({ userId: 4, userName: 'Ann Lee', tenantId: 9, tenantName: 'Acme', roles: ['Admin'] });
    const state = authReducer(undefined, tokensReceived({ accessToken }));
    expect(state).toEqual({
      accessTaken: accessToken,
      refreshTaken: '',
      roles: ['Admin'],
      tenantName: 'Acme',
      tenantId: 9,
      userId: 4,
      userName: 'Ann Lee',
    });
    expect(authReducer(state, signedOut())).toEqual(signedOutState);
  });

  it('an unreadable token signs out', () => {
    expect(authReducer(undefined, tokensReceived({ accessToken: 'garbage' }))).toEqual(signedOutState);
  });

  it('sends superAdmin to tenants, users without tenant or roles to settings, others to pulse', () => {
    expect(homeOf({ roles: ['superAdmin'], tenantId: -1 })).toBe('/dashboards/tenants');
    expect(homeOf({ roles: [], tenantId: -1 })).toBe('/dashboards/settings');
    expect(homeOf({ roles: [], tenantId: 3 })).toBe('/dashboards/settings');
    expect(homeOf({ roles: ['Admin'], tenantId: -1 })).toBe('/dashboards/settings');
    expect(homeOf({ roles: ['Salesman'], tenantId: 3 })).toBe('/dashboards/pulse');
  });
});
