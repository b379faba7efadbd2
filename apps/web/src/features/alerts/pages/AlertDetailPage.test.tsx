import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { configureStore } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert, Role } from '@vigil/contracts';
import { api } from '../../../lib/api/apiSlice.ts';
import { authReducer, signedOutState, type AuthState } from '../../../lib/session/authSlice.ts';
import { pageInfoReducer } from '../../../lib/state/uiSlices.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import AlertDetailPage from './AlertDetailPage.tsx';
import { stubRelativeRequests } from '../../../test/http-stubs.ts';

const toasts = vi.hoisted(() => ({ success: [] as string[], error: [] as string[] }));
vi.mock('../../../lib/notify.ts', () => ({
  notify: {
    success: (t: string) => toasts.success.push(t),
    error: (t: string) => toasts.error.push(t),
    warning: () => {},
  },
}));
vi.mock('../../../components/PageHeader.tsx', () => ({
  PageHeader: ({ title, extra }: { title: ReactNode; extra?: ReactNode }) => (
    <div>
      <h3>{title}</h3>
      {extra}
    </div>
  ),
}));

const OPEN: Alert = {
  id: 5,
  customerId: 2,
  customerName: 'Fairview Mall',
  tenantName: 'Harbor Co',
  alertType: 0,
  offlineCount: 2,
  status: 1,
  createdAt: '2026-11-27T08:00:00.000Z',
  resolvedAt: null,
  licenseId: null,
  ackedAt: null,
  ackedByName: null,
};
const ACKED: Alert = { ...OPEN, ackedAt: '2026-11-27T08:30:00.000Z', ackedByName: 'Sam Seller' };

const json = (body: unknown, status = 200) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('Alert detail', () => {
  let alert: Alert;
  let acks: number;
  beforeEach(() => {
    alert = OPEN;
    acks = 0;
    toasts.success = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((req: Request) => {
        const url = new URL(req.url);
        if (url.pathname === '/v0/api/alert-stats/5/ack' && req.method === 'POST') {
          acks += 1;
          alert = ACKED;
          return json({ data: alert });
        }
        if (url.pathname === '/v0/api/alert-stats/5') return json({ data: alert });
        if (url.pathname === '/v0/api/alert-stats/devices/5') return json({ data: { list: [], count: 0 } });
        return json({ error: { code: 'NOT_FOUND', msg: 'Not found' } }, 404);
      }),
    );
    stubRelativeRequests();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  async function mount(roles: Role[], tenantId = 3) {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: { auth: { ...signedOutState, accessTaken: 'token-1', roles, tenantId, userName: 'Sam Seller' } satisfies AuthState },
      middleware: (d) => d().concat(api.middleware),
    });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/dashboards/alerts/5']}>
          <Routes>
            <Route path="/dashboards/alerts/:id" element={<AlertDetailPage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await screen.findByText('Device Offline');
  }

  it('shows created, resolved and acknowledged, and acknowledges an open alert (Salesman)', async () => {
    await mount(['Salesman']);
    expect(screen.getByText(formatDateTime(OPEN.createdAt))).toBeTruthy();
    expect(screen.getByText('Created')).toBeTruthy();
    expect(screen.getByText('Resolved')).toBeTruthy();
    expect(screen.getByText('Acknowledged')).toBeTruthy();
    // A Salesman may not create a case, but may acknowledge.
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: /Acknowledge/ }));
    });
    await screen.findByText(`Sam Seller, ${formatDateTime(ACKED.ackedAt)}`);
    expect(acks).toBe(1);
    await vi.waitFor(() => expect(toasts.success).toEqual(['Alert acknowledged.']));
    // Acknowledged: the button is gone.
    expect(screen.queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  }, 60_000);

  it('offers no Acknowledge to the superAdmin, nor on a resolved alert', async () => {
    await mount(['superAdmin'], -1);
    expect(screen.queryByRole('button', { name: /Acknowledge/ })).toBeNull();
    cleanup();
    alert = { ...OPEN, status: 0, resolvedAt: '2026-11-27T09:00:00.000Z' };
    await mount(['Admin']);
    expect(screen.getByText(formatDateTime(alert.resolvedAt))).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  }, 60_000);
});
