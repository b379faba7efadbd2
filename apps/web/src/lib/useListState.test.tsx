import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListState } from './useListState.ts';

/** Renders the hook inside a data router so navigation history is real. */
function setup(initial: string) {
  let router!: ReturnType<typeof createMemoryRouter>;
  const hook = renderHook(() => ({ list: useListState(), location: useLocation() }), {
    wrapper: ({ children }: { children: ReactNode }) => {
      router ??= createMemoryRouter([{ path: '/users', element: <>{children}</> }], { initialEntries: [initial] });
      return <RouterProvider router={router} />;
    },
  });
  return { hook, router: () => router };
}

describe('useListState', () => {
  it('reads clamped state from the URL and turns it into the API range', () => {
    const { hook } = setup('/users?page=0&pageSize=5000&sort=%5B%22name%22%5D');
    expect(hook.result.current.list).toMatchObject({ page: 1, pageSize: 1000, sort: undefined, filter: {} });
    expect(hook.result.current.list.query.range).toEqual([0, 1000]);
  });

  it('writes page, sort and filter to the URL; back restores the previous state', async () => {
    const { hook, router } = setup('/users');
    act(() => hook.result.current.list.setPage(3));
    expect(hook.result.current.list.page).toBe(3);
    act(() => hook.result.current.list.setSort(['email', 'DESC']));
    expect(new URLSearchParams(hook.result.current.location.search).get('sort')).toBe('["email","DESC"]');
    act(() => hook.result.current.list.setFilter({ q: 'acme' }));
    expect(hook.result.current.list).toMatchObject({ page: 1, filter: { q: 'acme' }, sort: ['email', 'DESC'] });
    await act(() => router().navigate(-1));
    expect(hook.result.current.list).toMatchObject({ page: 3, filter: {}, sort: ['email', 'DESC'] });
  });

  it('keeps both of two changes made before the router renders the first (sort, then search)', () => {
    const { hook } = setup('/users');
    // The same closure for both calls: the second one comes before any re-render.
    const list = hook.result.current.list;
    act(() => {
      list.setSort(['name', 'ASC']);
      list.setFilter({ q: 'cedar' });
    });
    const params = new URLSearchParams(hook.result.current.location.search);
    expect(params.get('sort')).toBe('["name","ASC"]');
    expect(params.get('filter')).toBe('{"q":"cedar"}');
  });
});
