import { configureStore } from '@reduxjs/toolkit';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@vigil/contracts';
import { api } from '../../lib/api/apiSlice.ts';
import { notify } from '../../lib/notify.ts';
import { authReducer } from '../../lib/session/authSlice.ts';
import SignInPage from './pages/SignInPage.tsx';
import { json, stubRelativeRequests } from '../../test/http-stubs.ts';

configure({ asyncUtilTimeout: 8000 });

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const accessToken = `${b64({ alg: 'none' })}.${b64({ tenantId: 42, tenantName: 'Acme', roles: ['Admin'], userId: 7, userName: 'Dana' })}.sig`;

describe('sign-in form (AuthForm, no antd Form)', () => {
  let logins: unknown[];
  beforeEach(() => {
    logins = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (req: Request) => {
        const url = new URL(req.url);
        if (url.pathname === '/v0/auth/login' && req.method === 'POST') {
          logins.push(JSON.parse(await req.text()));
          return json({ data: { accessToken } });
        }
        return json({ error: 'not mocked' }, 404);
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

  function mount() {
    const store = configureStore({
      reducer: { auth: authReducer, [api.reducerPath]: api.reducer },
      middleware: (d) => d().concat(api.middleware),
    });
    const router = createMemoryRouter(
      [
        { path: '/auth/signin', element: <SignInPage /> },
        { path: '/dashboards/pulse', element: <p>Pulse page</p> },
      ],
      { initialEntries: ['/auth/signin'] },
    );
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    return store;
  }

  it('shows the messages under empty fields on submit, rechecks a field as it changes, and sends nothing', async () => {
    mount();
    const email = await screen.findByLabelText('Email');
    const password = screen.getByLabelText('Password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(MSG.email)).toBeTruthy();
    expect(screen.getByText(MSG.password)).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('email_help');
    expect(email.className).toContain('ant-input-status-error');
    // Blank is not an email (antd's `whitespace` rule).
    fireEvent.change(email, { target: { value: '   ' } });
    expect(screen.getByText(MSG.email)).toBeTruthy();
    fireEvent.change(email, { target: { value: 'dana@acme.test' } });
    expect(screen.queryByText(MSG.email)).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText(MSG.password)).toBeTruthy();
    fireEvent.change(password, { target: { value: 'x' } });
    expect(screen.queryByText(MSG.password)).toBeNull();
    expect(logins).toEqual([]);
  });

  it('signs in with the trimmed email, stores the session and goes to the role home', async () => {
    const store = mount();
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: '  dana@acme.test ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: ' secret pass ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Pulse page')).toBeTruthy();
    expect(logins).toEqual([{ email: 'dana@acme.test', password: ' secret pass ' }]);
    expect(store.getState().auth).toMatchObject({ accessTaken: accessToken, tenantId: 42, roles: ['Admin'] });
    expect(notify.success).toHaveBeenCalledWith(MSG.loggedIn);
  });
});
