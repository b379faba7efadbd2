import { cleanup, render, screen } from '@testing-library/react';
import { configureStore } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageInfoReducer } from '../../../lib/state/uiSlices.ts';
import { api } from '../../../lib/api/apiSlice.ts';
import { FALLBACK_COMMAND_PORTAL_URL } from '../../../lib/api/clientConfigApi.ts';
import { authReducer, signedOutState, type AuthState } from '../../../lib/session/authSlice.ts';
import { AccessCommandButton } from './AccessCommandButton.tsx';
import { json, stubRelativeRequests } from '../../../test/http-stubs.ts';

describe('AccessCommandButton', () => {
  let configAnswer: () => Response;
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn((req: Request) => Promise.resolve(new URL(req.url).pathname === '/v0/api/config' ? configAnswer() : json({}, 404))),
    );
    stubRelativeRequests();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function mount() {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: { auth: { ...signedOutState, accessTaken: 'token-1', roles: ['Project Manager'], tenantId: 3 } satisfies AuthState },
      middleware: (d) => d().concat(api.middleware),
    });
    render(
      <Provider store={store}>
        <AccessCommandButton />
      </Provider>,
    );
  }
  const link = () => screen.getByRole('link', { name: /Access Command/ });

  it("opens the server's command portal URL in a new tab, without opener or referrer", async () => {
    configAnswer = () => json({ data: { commandPortalUrl: 'https://command.acme.test/console', payments: 'sandbox' } });
    mount();
    await vi.waitFor(() => expect(link().getAttribute('href')).toBe('https://command.acme.test/console'));
    expect(link().getAttribute('target')).toBe('_blank');
    expect(link().getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('falls back to the build-time URL when the settings cannot be read', async () => {
    configAnswer = () => json({ error: { code: 'UNAVAILABLE', msg: 'down' } }, 503);
    mount();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(link().getAttribute('href')).toBe(FALLBACK_COMMAND_PORTAL_URL);
  });
});
