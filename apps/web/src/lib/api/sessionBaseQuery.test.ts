import { configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR } from '@vigil/contracts';
import { authReducer, tokensReceived } from '../session/authSlice.ts';
import { setNotifier, type Notifier } from '../notify.ts';
import { createSessionBaseQuery, REFRESH_PATH } from './sessionBaseQuery.ts';

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const tokenFor = (userId: number, tag: string) =>
  `${b64({ alg: 'HS256' })}.${b64({ userId, userName: `u${userId}`, tenantId: 7, tenantName: 'Acme', roles: ['Admin'], tag })}.sig`;
const OLD = tokenFor(1, 'old');
const NEW = tokenFor(1, 'new');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function setup(handler: (url: string, auth: string | null) => Response | Promise<Response>, type: 'query' | 'mutation' = 'mutation') {
  const store = configureStore({ reducer: { auth: authReducer } });
  store.dispatch(tokensReceived({ accessToken: OLD }));
  const calls: { url: string; auth: string | null }[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url).pathname;
    const auth = req.headers.get('authorization');
    calls.push({ url, auth });
    return handler(url, auth);
  });
  const expired = vi.fn();
  const baseQuery = createSessionBaseQuery({ baseUrl: 'http://vigil.test', fetchFn: fetchFn, onSessionExpired: expired });
  const api = {
    dispatch: store.dispatch,
    getState: () => store.getState(),
    signal: new AbortController().signal,
    abort: () => {},
    extra: undefined,
    endpoint: 'test',
    type,
  } as unknown as BaseQueryApi;
  const run = (url: string) => baseQuery({ url }, api, {});
  return { store, calls, run, expired };
}

const errors: string[] = [];
beforeEach(() => {
  errors.length = 0;
  const notifier: Notifier = {
    // notify.ts always passes a string description.
    error: (c) => void errors.push(c.description as string),
    success: () => {},
    warning: () => {},
    info: () => {},
  };
  setNotifier(notifier);
});

describe('session base query', () => {
  it('sends the bearer token and JSON accept header', async () => {
    const { run, calls } = setup(() => json(200, { data: { ok: true } }));
    const result = await run('/v0/api/users');
    expect(result.data).toEqual({ data: { ok: true } });
    expect(calls[0].auth).toBe(`Bearer ${OLD}`);
  });

  it('two parallel 401s share ONE refresh, then both retry with the new token', async () => {
    let refreshes = 0;
    const { run, calls, store } = setup(async (url, auth) => {
      if (url === REFRESH_PATH) {
        refreshes++;
        await new Promise((r) => setTimeout(r, 20));
        return json(200, { data: { accessToken: NEW, refreshToken: 'r2' } });
      }
      return auth === `Bearer ${NEW}` ? json(200, { data: { url } }) : json(401, { error: { code: 'UNAUTHORIZED', msg: 'expired' } });
    });
    const [a, b] = await Promise.all([run('/v0/api/users'), run('/v0/api/tenants')]);
    expect(refreshes).toBe(1);
    expect(a.data).toEqual({ data: { url: '/v0/api/users' } });
    expect(b.data).toEqual({ data: { url: '/v0/api/tenants' } });
    expect(store.getState().auth.accessTaken).toBe(NEW);
    expect(store.getState().auth.refreshTaken).toBe('');
    expect(calls.filter((c) => c.url !== REFRESH_PATH && c.auth === `Bearer ${NEW}`)).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('a 403 triggers a refresh and one retry', async () => {
    let refreshes = 0;
    const { run } = setup((url, auth) => {
      if (url === REFRESH_PATH) {
        refreshes++;
        return json(200, { data: { accessToken: NEW, refreshToken: 'r2' } });
      }
      return auth === `Bearer ${NEW}` ? json(200, { data: 'ok' }) : json(403, { error: { code: 'FORBIDDEN', msg: 'no' } });
    });
    const result = await run('/v0/api/tenants/3');
    expect(refreshes).toBe(1);
    expect(result.data).toEqual({ data: 'ok' });
  });

  it('retries only once: a second 403 is shown with the body message', async () => {
    const { run, calls } = setup((url) =>
      url === REFRESH_PATH
        ? json(200, { data: { accessToken: NEW, refreshToken: 'r' } })
        : json(403, { error: { code: 'FORBIDDEN', msg: 'Not yours.' } }),
    );
    const result = await run('/v0/api/users');
    expect(result.error?.status).toBe(403);
    expect(calls.map((c) => c.url)).toEqual(['/v0/api/users', REFRESH_PATH, '/v0/api/users']);
    expect(errors).toEqual(['Not yours.']);
  });

  it('a failed refresh signs out and goes to sign-in', async () => {
    const { run, store, expired } = setup((url) =>
      url === REFRESH_PATH ? json(401, { error: { code: 'UNAUTHORIZED', msg: 'gone' } }) : json(401, {}),
    );
    const result = await run('/v0/api/users');
    expect(result.error?.status).toBe(401);
    expect(store.getState().auth).toMatchObject({ accessTaken: '', roles: [], tenantId: -1 });
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh for the sign-in call itself', async () => {
    const { run, calls } = setup(() => json(401, { error: { code: 'UNAUTHORIZED', msg: 'Invalid email or password.' } }));
    await run('/v0/auth/login');
    expect(calls.map((c) => c.url)).toEqual(['/v0/auth/login']);
    expect(errors).toEqual(['Invalid email or password.']);
  });

  it('a failed load (a query) shows no toast: the page shows the failure in place', async () => {
    const { run } = setup(() => json(404, { error: { code: 'NOT_FOUND', msg: 'Resource not found.' } }), 'query');
    const result = await run('/v0/api/customers/999');
    expect(result.error?.status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('shows the catalogue message by status, and the network message with no response', async () => {
    const { run } = setup((url) => {
      if (url === '/v0/api/down') throw new TypeError('fetch failed');
      return new Response('', { status: 404 });
    });
    await run('/v0/api/missing');
    await run('/v0/api/down');
    expect(errors).toEqual(['Resource not found.', NETWORK_ERROR]);
  });
});
