import { act, cleanup, render } from '@testing-library/react';
import { configureStore, type Middleware } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageInfoReducer } from '../../lib/state/uiSlices.ts';
import { api } from '../../lib/api/apiSlice.ts';
import { authReducer, signedOutState, type AuthState } from '../../lib/session/authSlice.ts';
import { LiveEventsConnector } from './LiveEventsConnector.tsx';
import { stubRelativeRequests } from '../../test/http-stubs.ts';

/** A stand-in EventSource that the test drives. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  closed = false;
  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: data === undefined ? '' : JSON.stringify(data) }));
  }
}

describe('LiveEventsConnector', () => {
  let tickets = 0;
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    tickets = 0;
    FakeEventSource.all = [];
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('EventSource', FakeEventSource);
    fetchMock = vi.fn((req: Request) => {
      const url = new URL(req.url);
      if (url.pathname === '/v0/api/live-events/ticket') {
        tickets += 1;
        return Promise.resolve(
          new Response(JSON.stringify({ data: { ticket: `t${tickets}`, expiresAt: '2026-11-22T06:01:00.000Z' } }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }
      return Promise.resolve(new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }));
    });
    vi.stubGlobal('fetch', fetchMock);
    stubRelativeRequests();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  let actions: string[] = [];
  function mount(accessTaken = 'token-1') {
    actions = [];
    const record: Middleware = () => (next) => (action) => {
      actions.push((action as { type?: string }).type ?? '');
      return next(action);
    };
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: { auth: { ...signedOutState, accessTaken, roles: ['Admin'], tenantId: 3 } satisfies AuthState },
      middleware: (d) => d().concat(api.middleware, record),
    });
    render(
      <Provider store={store}>
        <LiveEventsConnector />
      </Provider>,
    );
    return store;
  }

  it('opens the stream with a ticket (never the token) and raises the banner for a new offline alert only', async () => {
    const store = mount();
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    expect(FakeEventSource.all[0].url).toBe('/v0/api/live-events/stream?ticket=t1');
    expect(FakeEventSource.all[0].url).not.toContain('token-1');

    act(() => FakeEventSource.all[0].emit('alert', { alertId: 9, customerId: 2, customerName: 'Acme', alertType: 1, offlineCount: 4 }));
    expect(store.getState().pageInfo.isShowAlert).toBe(false);
    // Never '0 devices offline'.
    act(() => FakeEventSource.all[0].emit('alert', { alertId: 8, customerId: 2, customerName: 'Acme', alertType: 0, offlineCount: 0 }));
    expect(store.getState().pageInfo.isShowAlert).toBe(false);
    act(() => FakeEventSource.all[0].emit('alert', { alertId: 7, customerId: 2, customerName: 'Acme', alertType: 0, offlineCount: 3 }));
    expect(store.getState().pageInfo).toMatchObject({ isShowAlert: true, alarmContent: 'Acme: 3 devices offline', alertId: 7 });
  });

  it('refetches live data once per burst of device changes', async () => {
    mount();
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const source = FakeEventSource.all[0];
    act(() => {
      for (let i = 0; i < 10; i++)
        source.emit('devices', {
          customerId: 1,
          offlineCount: i,
          onlineCount: 1,
          offline: [i],
          online: [],
          at: '2026-11-22T06:00:00.000Z',
        });
    });
    await act(() => vi.advanceTimersByTimeAsync(800));
    expect(actions.filter((t) => t.endsWith('invalidateTags'))).toHaveLength(1);
  });

  it('reconnects with a fresh ticket after an error', async () => {
    mount();
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    act(() => FakeEventSource.all[0].emit('error'));
    expect(FakeEventSource.all[0].closed).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1100));
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(2));
    expect(FakeEventSource.all[1].url).toBe('/v0/api/live-events/stream?ticket=t2');
  });

  it('does not connect without a session', async () => {
    mount('');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(FakeEventSource.all).toHaveLength(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
