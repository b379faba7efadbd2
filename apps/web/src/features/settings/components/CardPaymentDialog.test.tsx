import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import type { Stripe } from '@stripe/stripe-js';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, type CardSubscriptionIntent } from '@vigil/contracts';
import { pageInfoReducer } from '../../../lib/state/uiSlices.ts';
import { api } from '../../../lib/api/apiSlice.ts';
import { notify } from '../../../lib/notify.ts';
import { authReducer, signedOutState, type AuthState } from '../../../lib/session/authSlice.ts';
import CardPaymentDialog from './CardPaymentDialog.tsx';
import { json, stubRelativeRequests } from '../../../test/http-stubs.ts';

// Generous waits: the machine running the suite is shared and antd's first render is slow there.
configure({ asyncUtilTimeout: 5000 });
const WAIT = { timeout: 5000 };

const jwt = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;
const ACTIVATED = jwt({ userId: 7, userName: 'Sam Lee', tenantId: 42, tenantName: 'Card Co', roles: ['Admin'] });

const setupIntent: CardSubscriptionIntent = {
  billingId: 31,
  intentType: 'setup',
  clientSecret: 'seti_1_secret_x',
  publishableKey: 'pk_test_x',
};
const paymentIntent: CardSubscriptionIntent = {
  billingId: 32,
  intentType: 'payment',
  clientSecret: 'pi_1_secret_x',
  publishableKey: 'pk_test_x',
};

type ConfirmResult = { error?: { message?: string } };

/**
 * A Stripe-like object as <Elements> accepts it: elements() creates mountable elements
 * (getElement finds the card by the component's element type), and the confirm calls answer
 * what each test sets. No Stripe.js is loaded (none can be, offline).
 */
function fakeStripe(answer: () => Promise<ConfirmResult>) {
  const created = new Map<string, { mount: (node: HTMLElement) => void }>();
  const elements = {
    create: vi.fn((type: string) => {
      const element = {
        mount: (node: HTMLElement) => node.append(Object.assign(document.createElement('input'), { name: `fake-${type}` })),
        on: vi.fn(),
        off: vi.fn(),
        update: vi.fn(),
        destroy: vi.fn(() => created.delete(type)),
      };
      created.set(type, element);
      return element;
    }),
    getElement: vi.fn(
      (which: string | { __elementType?: string }) => created.get(typeof which === 'string' ? which : (which.__elementType ?? '')) ?? null,
    ),
    update: vi.fn(),
  };
  return {
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardSetup: vi.fn(answer),
    confirmCardPayment: vi.fn(answer),
    /** Tests remove the card to see the 'not found' path. */
    created,
  };
}

describe('CardPaymentDialog (Stripe Elements with a fake Stripe)', () => {
  let confirmAnswer: () => Response;
  let confirmBodies: unknown[];
  beforeEach(() => {
    confirmBodies = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (req: Request) => {
        if (new URL(req.url).pathname !== '/v0/api/tenants/confirm-subscription-intent') return json({}, 404);
        confirmBodies.push(await req.json());
        return confirmAnswer();
      }),
    );
    stubRelativeRequests();
    vi.spyOn(notify, 'success').mockImplementation(() => undefined);
    vi.spyOn(notify, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  function mount(intent: CardSubscriptionIntent, stripe: ReturnType<typeof fakeStripe> | null) {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: {
        auth: { ...signedOutState, accessTaken: jwt({ userId: 7, tenantId: -1, roles: [] }), tenantId: -1 } satisfies AuthState,
      },
      middleware: (d) => d().concat(api.middleware),
    });
    const onClose = vi.fn();
    const router = createMemoryRouter(
      [
        {
          path: '/dashboards/settings',
          element: <CardPaymentDialog intent={intent} onClose={onClose} stripe={stripe as unknown as Stripe | null} />,
        },
        { path: '/dashboards/pulse', element: <p>Pulse page</p> },
      ],
      { initialEntries: ['/dashboards/settings'] },
    );
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    return { store, router, onClose };
  }
  // After a try, antd's loading icon fades out ('loading Pay' for a moment): the name ends with Pay.
  const pay = () => act(() => Promise.resolve(fireEvent.click(screen.getByRole('button', { name: /^(loading )?Pay$/ }))));

  it("is titled 'Enter Payment Details' and mounts the card element", async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    mount(setupIntent, stripe);
    expect(await screen.findByText('Enter Payment Details')).toBeTruthy();
    await vi.waitFor(() => expect(stripe.elements().create).toHaveBeenCalledWith('card', expect.anything()), WAIT);
    expect(document.querySelector('input[name="fake-card"]')).toBeTruthy();
  });

  it("success: the trial's SetupIntent is confirmed with the card, the server confirms, the activated session goes to Pulse with 'Payment successful.'", async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    confirmAnswer = () => json({ data: { paymentStatus: 'paid', accessToken: ACTIVATED, refreshToken: 'r' } });
    const { store, router, onClose } = mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboards/pulse'), WAIT);
    expect(onClose).toHaveBeenCalled();
    const card: unknown = stripe.elements().create.mock.results[0].value;
    expect(stripe.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_x', { payment_method: { card } });
    expect(stripe.confirmCardPayment).not.toHaveBeenCalled();
    expect(confirmBodies).toEqual([{ billingId: 31 }]);
    expect(notify.success).toHaveBeenCalledWith(MSG.paymentSuccessful);
    expect(store.getState().auth).toMatchObject({ accessTaken: ACTIVATED, tenantId: 42, roles: ['Admin'] });
    expect(screen.getByText('Pulse page')).toBeTruthy();
  });

  it('without a trial the PaymentIntent is confirmed instead', async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    confirmAnswer = () => json({ data: { paymentStatus: 'paid', accessToken: ACTIVATED } });
    const { router } = mount(paymentIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboards/pulse'), WAIT);
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith(
      'pi_1_secret_x',
      expect.objectContaining({ payment_method: expect.anything() as unknown }),
    );
    expect(confirmBodies).toEqual([{ billingId: 32 }]);
  });

  it("a card error shows Stripe's message in the dialog and asks the server nothing; another try can succeed", async () => {
    let answer: ConfirmResult = { error: { message: 'Your card was declined.' } };
    const stripe = fakeStripe(() => Promise.resolve(answer));
    confirmAnswer = () => json({ data: { paymentStatus: 'paid', accessToken: ACTIVATED } });
    const { router } = mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(confirmBodies).toEqual([]);
    expect(router.state.location.pathname).toBe('/dashboards/settings');
    answer = { error: {} };
    await pay();
    expect(await screen.findByText(MSG.paymentFailed)).toBeTruthy();
    answer = {};
    await pay();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboards/pulse'), WAIT);
  });

  it("the server not confirming the payment: 'Payment failed', nothing activated", async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    confirmAnswer = () => json({ data: { paymentStatus: 'unpaid' } });
    const { store, router } = mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    expect(await screen.findByText(MSG.paymentFailed)).toBeTruthy();
    expect(confirmBodies).toEqual([{ billingId: 31 }]);
    expect(router.state.location.pathname).toBe('/dashboards/settings');
    expect(store.getState().auth.tenantId).toBe(-1);
    expect(notify.success).not.toHaveBeenCalled();
  });

  it("the confirmation call failing: 'Payment processing failed'", async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    confirmAnswer = () => json({ error: { code: 'INTERNAL', msg: 'Failed to verify checkout session' } }, 500);
    const { router } = mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    expect(await screen.findByText(MSG.paymentProcessingFailed)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboards/settings');
  });

  it("Stripe.js throwing: 'Payment processing failed'", async () => {
    const stripe = fakeStripe(() => Promise.reject(new Error('network')));
    mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    expect(await screen.findByText(MSG.paymentProcessingFailed)).toBeTruthy();
    expect(confirmBodies).toEqual([]);
  });

  it("Stripe.js not loaded (offline): 'Stripe has not loaded yet'", async () => {
    mount(setupIntent, null);
    await screen.findByRole('button', { name: 'Pay' });
    await pay();
    expect(await screen.findByText(MSG.stripeNotLoaded)).toBeTruthy();
    expect(confirmBodies).toEqual([]);
  });

  it("no card element: 'Card Element not found'", async () => {
    const stripe = fakeStripe(() => Promise.resolve({}));
    mount(setupIntent, stripe);
    await screen.findByRole('button', { name: 'Pay' });
    await vi.waitFor(() => expect(stripe.created.has('card')).toBe(true), WAIT);
    stripe.created.clear();
    await pay();
    expect(await screen.findByText(MSG.cardElementNotFound)).toBeTruthy();
    expect(stripe.confirmCardSetup).not.toHaveBeenCalled();
  });

  it('Cancel closes the dialog', async () => {
    const { onClose } = mount(
      setupIntent,
      fakeStripe(() => Promise.resolve({})),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});
