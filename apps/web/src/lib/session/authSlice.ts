import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Role } from '@vigil/contracts';
import { claimsOf } from '../jwt.ts';

/**
 * Auth state, field names exactly as in docs/web.md "State and persistence". `refreshTaken` stays empty in the
 * store (and so in localStorage): the API also sets the refresh token as an
 * httpOnly cookie on /v0/auth, which refresh and logout read instead.
 */
export interface AuthState {
  accessTaken: string;
  refreshTaken: string;
  roles: Role[];
  tenantName: string;
  tenantId: number;
  userId: number;
  userName: string;
}

export const signedOutState: AuthState = {
  accessTaken: '',
  refreshTaken: '',
  roles: [],
  tenantName: '',
  tenantId: -1,
  userId: -1,
  userName: '',
};

const authSlice = createSlice({
  name: 'auth',
  initialState: signedOutState,
  reducers: {
    /** Stores a new access token and the claims it carries. */
    tokensReceived(_state, action: PayloadAction<{ accessToken: string }>) {
      const claims = claimsOf(action.payload.accessToken);
      if (!claims) return signedOutState;
      return {
        accessTaken: action.payload.accessToken,
        refreshTaken: '',
        roles: claims.roles,
        tenantName: claims.tenantName,
        tenantId: claims.tenantId,
        userId: claims.userId,
        userName: claims.userName,
      };
    },
    signedOut() {
      return signedOutState;
    },
  },
});

export const { tokensReceived, signedOut } = authSlice.actions;
export const authReducer = authSlice.reducer;

export type HomeRoute = '/dashboards/tenants' | '/dashboards/settings' | '/dashboards/pulse';
/** Where a user lands after signing in (docs/web.md "Session"). */
export function homeOf(auth: Pick<AuthState, 'roles' | 'tenantId'>): HomeRoute {
  if (auth.roles.includes('superAdmin')) return '/dashboards/tenants';
  if (auth.tenantId === -1 || auth.roles.length === 0) return '/dashboards/settings';
  return '/dashboards/pulse';
}

export const isSuperAdmin = (auth: Pick<AuthState, 'roles'>) => auth.roles.includes('superAdmin');
export const isAdminOrSuper = (auth: Pick<AuthState, 'roles'>) => auth.roles.includes('superAdmin') || auth.roles.includes('Admin');
