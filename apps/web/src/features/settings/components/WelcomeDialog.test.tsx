import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageInfoReducer } from '../../../lib/state/uiSlices.ts';
import { api } from '../../../lib/api/apiSlice.ts';
import { notify } from '../../../lib/notify.ts';
import { authReducer, signedOutState, type AuthState } from '../../../lib/session/authSlice.ts';
import { WelcomeDialog } from './WelcomeDialog.tsx';
import { json, stubRelativeRequests } from '../../../test/http-stubs.ts';

// Generous waits: the machine running the suite is shared and antd's first render is slow there.
configure({ asyncUtilTimeout: 5000 });
const WAIT = { timeout: 5000 };

const FORM = { name: 'Card Co', contactName: 'Sam Lee', email: 'owner@card-co.test', phone: '555', address: '2 Side St', goalScore: 95 };
const INTENT = { billingId: 9, intentType: 'setup', clientSecret: 'seti_9_secret', publishableKey: 'pk_test_x' };

describe("WelcomeDialog's 'Go To Payment'", () => {
  let config: Record<string, unknown>;
  let calls: { path: string; body: unknown }[];
  beforeEach(() => {
    calls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (req: Request) => {
        const path = new URL(req.url).pathname;
        if (path === '/v0/api/config') return json({ data: config });
        calls.push({ path, body: await req.json() });
        if (path === '/v0/api/tenants/register-with-subscription-intent')
          return json({ data: { tenant: { id: 4, ...FORM }, intent: INTENT } });
        // The hosted checkout is refused here so the test browser does not navigate away.
        return json({ error: { code: 'INTERNAL', msg: 'Failed to create checkout session' } }, 500);
      }),
    );
    stubRelativeRequests();
    vi.spyOn(notify, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  async function goToPayment() {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: { auth: { ...signedOutState, accessTaken: 'token-1', tenantId: -1 } satisfies AuthState },
      middleware: (d) => d().concat(api.middleware),
    });
    const onCardIntent = vi.fn();
    render(
      <Provider store={store}>
        <WelcomeDialog open onClose={() => undefined} values={() => FORM} onCardIntent={onCardIntent} />
      </Provider>,
    );
    await vi.waitFor(() => expect(store.getState()[api.reducerPath].queries['clientConfig(undefined)']?.status).toBe('fulfilled'), WAIT);
    await act(() => Promise.resolve(fireEvent.click(screen.getByRole('button', { name: /Go To Payment$/ }))));
    await vi.waitFor(() => expect(calls.length).toBe(1), WAIT);
    return onCardIntent;
  }

  it('with PAYMENTS=stripe and a publishable key: creates the card subscription and hands its intent to the card dialog', async () => {
    config = { commandPortalUrl: 'https://c.test', payments: 'stripe', stripePublishableKey: 'pk_test_x' };
    const onCardIntent = await goToPayment();
    expect(calls).toEqual([{ path: '/v0/api/tenants/register-with-subscription-intent', body: FORM }]);
    await vi.waitFor(() => expect(onCardIntent).toHaveBeenCalledWith(INTENT), WAIT);
  });

  it('the sandbox (and Stripe without a publishable key) keeps the hosted checkout', async () => {
    for (const next of [
      { commandPortalUrl: 'https://c.test', payments: 'sandbox', stripePublishableKey: null },
      { commandPortalUrl: 'https://c.test', payments: 'stripe', stripePublishableKey: null },
    ]) {
      config = next;
      calls = [];
      const onCardIntent = await goToPayment();
      expect(calls.map((c) => c.path)).toEqual(['/v0/api/tenants/register-with-subscription-redirect']);
      expect(onCardIntent).not.toHaveBeenCalled();
      cleanup();
    }
  });
});
