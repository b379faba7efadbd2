import { act, render, screen, fireEvent } from '@testing-library/react';
import { configureStore } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api/apiSlice.ts';
import { authReducer } from '../../../lib/session/authSlice.ts';
import { PortalSearch } from './PortalSearch.tsx';
import { stubRelativeRequests } from '../../../test/http-stubs.ts';

describe('customer search box', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            data: [
              { id: 4, name: 'Harbor Point' },
              { id: 5, name: null },
            ],
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    // jsdom's Request needs an absolute URL; the app calls its own origin.
    stubRelativeRequests();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function renderSearch() {
    const store = configureStore({
      reducer: { auth: authReducer, [api.reducerPath]: api.reducer },
      middleware: (d) => d().concat(api.middleware),
    });
    render(
      <Provider store={store}>
        <MemoryRouter>
          <PortalSearch />
        </MemoryRouter>
      </Provider>,
    );
    return screen.getByPlaceholderText('Search for something');
  }
  const searchCalls = () => fetchMock.mock.calls.map((c) => decodeURIComponent(new URL((c[0] as Request).url).search));

  it('waits 200 ms after the last keystroke and needs 2+ characters', async () => {
    const input = renderSearch();
    fireEvent.change(input, { target: { value: 'h' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: 'ha' } });
    await act(() => vi.advanceTimersByTimeAsync(100));
    fireEvent.change(input, { target: { value: 'har' } });
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(60));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(searchCalls()).toEqual(['?filter={"name":"har"}']);

    await vi.waitFor(() => expect(document.querySelectorAll('mark.vigil-highlight').length).toBeGreaterThan(0));
    expect(document.querySelector('mark.vigil-highlight')!.textContent).toBe('Har');
    expect(screen.getByText('Unknown Customer')).toBeTruthy();
  });
});
