import type { BaseQueryApi, BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { signedOut, tokensReceived, type AuthState } from '../session/authSlice.ts';
import { messageOf } from '../errors.ts';
import { navigateTo } from '../navigation.ts';
import { notify } from '../notify.ts';

export const REQUEST_TIMEOUT_MS = 30_000;
export const REFRESH_PATH = '/v0/auth/refresh';

/** Per-endpoint options: `silent` suppresses the error notification (alarms, search). */
export interface SessionExtraOptions {
  silent?: boolean;
}

type StateWithAuth = { auth: AuthState };
/** Calls that must never trigger a refresh: they are the session's own calls. */
const NO_REFRESH = ['/v0/auth/login', '/v0/auth/refresh', '/v0/auth/logout', '/v0/auth/register'];

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url);

export interface SessionBaseQueryOptions {
  /** Origin to prefix (tests); the app calls its own origin. */
  baseUrl?: string;
  fetchFn?: typeof fetch;
  onSessionExpired?: () => void;
}

/**
 * fetchBaseQuery plus the session (docs/web.md "Session", docs/product.md "Calls", "Messages"): bearer token and JSON
 * headers on every call, 30 s timeout; the first 401 or any 403 triggers ONE refresh
 * (single-flight: parallel failures wait for the same promise) and one retry;
 * a failed refresh signs out and goes to sign-in. Errors of mutations become notifications.
 */
export function createSessionBaseQuery(
  options: SessionBaseQueryOptions = {},
): BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, SessionExtraOptions> {
  const raw = fetchBaseQuery({
    baseUrl: options.baseUrl ?? '',
    timeout: REQUEST_TIMEOUT_MS,
    credentials: 'same-origin',
    fetchFn: options.fetchFn ? (...a) => options.fetchFn!(...a) : undefined,
    prepareHeaders: (headers, { getState }) => {
      const token = (getState() as StateWithAuth).auth?.accessTaken;
      if (token) headers.set('authorization', `Bearer ${token}`);
      headers.set('accept', 'application/json');
      return headers;
    },
  });
  const expired = options.onSessionExpired ?? (() => navigateTo('/auth/signin'));
  let refreshing: Promise<boolean> | null = null;

  function refreshOnce(api: BaseQueryApi): Promise<boolean> {
    refreshing ??= (async () => {
      const result = await raw({ url: REFRESH_PATH, method: 'POST', body: {} }, api, {});
      const accessToken = (result.data as { data?: { accessToken?: string } } | undefined)?.data?.accessToken;
      if (accessToken) {
        api.dispatch(tokensReceived({ accessToken }));
        return true;
      }
      api.dispatch(signedOut());
      expired();
      return false;
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  return async (args, api, extraOptions = {}) => {
    const tokenUsed = (api.getState() as StateWithAuth).auth?.accessTaken ?? '';
    let result = await raw(args, api, extraOptions);
    const status = result.error?.status;
    if ((status === 401 || status === 403) && tokenUsed && !NO_REFRESH.includes(urlOf(args).split('?')[0])) {
      const current = (api.getState() as StateWithAuth).auth?.accessTaken ?? '';
      // Another request already refreshed while this one was in flight: just retry.
      const fresh = current && current !== tokenUsed ? true : await refreshOnce(api);
      if (!fresh) return result;
      result = await raw(args, api, extraOptions);
    }
    // One presentation per failure (docs/web.md "Errors"): a failed load (query) shows its message in
    // place (ErrorState, DetailLoadError, the Forbidden page), so only a failed change (mutation) toasts.
    if (result.error && !extraOptions.silent && api.type === 'mutation') notify.error(messageOf(result.error));
    return result;
  };
}
