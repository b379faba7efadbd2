import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAINT_MSG, type MaintenanceWindow, type Role } from '@vigil/contracts';
import { api } from '../../lib/api/apiSlice.ts';
import { notify } from '../../lib/notify.ts';
import { authReducer, signedOutState, type AuthState } from '../../lib/session/authSlice.ts';
import { pageInfoReducer, themeReducer } from '../../lib/state/uiSlices.ts';
import { MaintenanceCard } from './components/MaintenanceCard.tsx';
import { json, stubRelativeRequests } from '../../test/http-stubs.ts';

// Generous waits: the machine running the suite is shared and antd's first render is slow there.
configure({ asyncUtilTimeout: 8000 });

const NOW = Date.now();
const inForce: MaintenanceWindow = {
  id: 1,
  customerId: 11,
  customerName: 'Harbor Mall',
  deviceIds: [],
  startsAt: new Date(NOW - 3_600_000).toISOString(),
  endsAt: new Date(NOW + 3_600_000).toISOString(),
  recurrence: 'none',
  reason: 'Firmware upgrade',
  createdByName: 'Dana Whitfield',
  createdAt: new Date(NOW - 7_200_000).toISOString(),
  inForce: true,
  nextStartsAt: new Date(NOW - 3_600_000).toISOString(),
  nextEndsAt: new Date(NOW + 3_600_000).toISOString(),
};
const weekly: MaintenanceWindow = {
  ...inForce,
  id: 2,
  deviceIds: [5, 6],
  recurrence: 'weekly',
  reason: '',
  inForce: false,
  startsAt: '2026-11-30T14:00:00.000Z',
  endsAt: '2026-11-30T15:00:00.000Z',
  nextStartsAt: '2099-11-30T14:00:00.000Z',
  nextEndsAt: '2099-11-30T15:00:00.000Z',
};

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

describe('maintenance card (web)', { timeout: 60_000 }, () => {
  let calls: Call[];
  let answers: Record<string, (call: Call) => Response>;
  beforeEach(() => {
    calls = [];
    answers = {};
    vi.stubGlobal(
      'fetch',
      vi.fn(async (req: Request) => {
        const url = new URL(req.url);
        const text = req.method === 'GET' || req.method === 'DELETE' ? '' : await req.text();
        const call: Call = { method: req.method, path: url.pathname, search: url.searchParams, body: text ? JSON.parse(text) : undefined };
        calls.push(call);
        const custom = answers[`${req.method} ${url.pathname}`];
        if (custom) return custom(call);
        if (url.pathname === '/v0/auth/me') return json({ data: { id: 7, tenantId: 42, tenantTimezone: 'America/New_York' } });
        if (url.pathname === '/v0/api/maintenance-windows') return json({ data: { list: [inForce, weekly], count: 2 } });
        if (url.pathname === '/v0/api/devices')
          return json({
            data: {
              list: [
                { id: 5, name: 'Gate Camera' },
                { id: 6, name: 'Lobby Intercom' },
              ],
              count: 2,
            },
          });
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

  function mount(roles: Role[], deviceId?: number) {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, theme: themeReducer, [api.reducerPath]: api.reducer },
      preloadedState: {
        auth: { ...signedOutState, accessTaken: 'token', roles, tenantId: 42, tenantName: 'Acme', userId: 7 } satisfies AuthState,
      },
      middleware: (d) => d().concat(api.middleware),
    });
    const router = createMemoryRouter([{ path: '/p', element: <MaintenanceCard customerId={11} deviceId={deviceId} /> }], {
      initialEntries: ['/p'],
    });
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
  }
  const click = (el: HTMLElement) => act(() => Promise.resolve(fireEvent.click(el)));
  const dialogOf = async (title: string) =>
    (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
  const lastCall = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).at(-1);

  it("an Admin sees the portal's current windows in the tenant's zone, with Schedule, Edit and Delete", async () => {
    mount(['Admin']);
    expect(await screen.findByText('Firmware upgrade')).toBeTruthy();
    expect(await screen.findByText(/Times in America\/New_York, the tenant/)).toBeTruthy();
    expect(screen.getByText('All devices')).toBeTruthy();
    expect(screen.getByText('2 devices')).toBeTruthy();
    expect(screen.getByText('In progress')).toBeTruthy();
    expect(screen.getByText('Scheduled')).toBeTruthy();
    expect(screen.getAllByText('Weekly').length).toBeGreaterThan(0);
    // 2026-11-30 14:00 UTC is 9:00 AM in New York; the weekly window's next occurrence is named.
    expect(screen.getByText('11/30/26 9:00 AM')).toBeTruthy();
    expect(screen.getByText('Next: 11/30/99 9:00 AM')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Schedule Maintenance/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit maintenance window 1' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete maintenance window 2' })).toBeTruthy();
    const list = lastCall('GET', '/v0/api/maintenance-windows')!;
    expect(JSON.parse(list.search.get('filter')!)).toEqual({ customerId: 11, current: true });
  });

  it("a Salesman reads the windows in the tenant's zone too, without Schedule, Edit or Delete", async () => {
    mount(['Salesman']);
    expect(await screen.findByText('Firmware upgrade')).toBeTruthy();
    expect(await screen.findByText(/Times in America\/New_York, the tenant/)).toBeTruthy();
    expect(screen.getByText('11/30/26 9:00 AM')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Schedule Maintenance/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /maintenance window/ })).toBeNull();
  });

  it("names the browser's zone when the profile cannot be read", async () => {
    answers['GET /v0/auth/me'] = () => json({ error: { code: 'INTERNAL', msg: 'down' } }, 500);
    mount(['Salesman']);
    expect(await screen.findByText('Firmware upgrade')).toBeTruthy();
    expect(await screen.findByText(/this browser’s time zone/)).toBeTruthy();
  });

  it('the device page lists the windows covering the device', async () => {
    mount(['Project Manager'], 5);
    expect(await screen.findByText('Firmware upgrade')).toBeTruthy();
    expect(JSON.parse(lastCall('GET', '/v0/api/maintenance-windows')!.search.get('filter')!)).toEqual({ deviceId: 5, current: true });
  });

  it("Schedule: the contract's message for an end before the start; then the window is sent as UTC instants of the tenant's wall clock", async () => {
    let posted: unknown;
    answers['POST /v0/api/maintenance-windows'] = (call) => {
      posted = call.body;
      return json({ data: { ...inForce, id: 3 } }, 201);
    };
    mount(['Admin'], 5);
    await screen.findByText(/Times in America\/New_York/);
    await click(screen.getByRole('button', { name: /Schedule Maintenance/ }));
    const dialog = await dialogOf('Schedule Maintenance');
    expect(within(dialog).getByText('Starts (America/New_York)')).toBeTruthy();
    const starts = within(dialog).getByLabelText<HTMLInputElement>('Starts');
    const ends = within(dialog).getByLabelText<HTMLInputElement>('Ends');
    expect(starts.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00$/);
    fireEvent.change(starts, { target: { value: '2099-07-01T10:00' } });
    fireEvent.change(ends, { target: { value: '2099-07-01T09:00' } });
    await click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText(MAINT_MSG.order)).toBeTruthy();
    fireEvent.change(ends, { target: { value: '2099-07-01T12:30' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: ' Lens cleaning ' } });
    await click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await vi.waitFor(() => expect(posted).toBeDefined(), { timeout: 8000 });
    // Prefilled with the device of the page; 10:00 EDT is 14:00 UTC.
    expect(posted).toEqual({
      customerId: 11,
      deviceIds: [5],
      startsAt: '2099-07-01T14:00:00.000Z',
      endsAt: '2099-07-01T16:30:00.000Z',
      recurrence: 'none',
      reason: 'Lens cleaning',
    });
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith(MAINT_MSG.created), { timeout: 8000 });
  });

  it("shows the server's refusal under its field", async () => {
    answers['PATCH /v0/api/maintenance-windows/2'] = () => json({ error: { msg: MAINT_MSG.unknownDevice } }, 400);
    mount(['Admin']);
    await click(await screen.findByRole('button', { name: 'Edit maintenance window 2' }));
    const dialog = await dialogOf('Edit Maintenance');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Starts').value).toBe('2026-11-30T09:00');
    // Saving unchanged asks nothing of the server.
    await click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(lastCall('PATCH', '/v0/api/maintenance-windows/2')).toBeUndefined();
    await click(screen.getByRole('button', { name: 'Edit maintenance window 2' }));
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Lens cleaning' } });
    await click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(MAINT_MSG.unknownDevice)).toBeTruthy();
    // Only what changed is sent.
    expect(lastCall('PATCH', '/v0/api/maintenance-windows/2')!.body).toEqual({ reason: 'Lens cleaning' });
    expect(notify.success).not.toHaveBeenCalled();
  });
  it('a portal with more devices than one page: the picker searches the server, and the chosen device is sent', async () => {
    let posted: unknown;
    answers['POST /v0/api/maintenance-windows'] = (call) => {
      posted = call.body;
      return json({ data: { ...inForce, id: 4 } }, 201);
    };
    answers['GET /v0/api/devices'] = (call) => {
      const filter = JSON.parse(call.search.get('filter')!) as { q?: string };
      return filter.q === 'Roof'
        ? json({ data: { list: [{ id: 1203, name: 'Roof Camera 1203' }], count: 1 } })
        : json({ data: { list: [{ id: 5, name: 'Gate Camera' }], count: 1500 } });
    };
    mount(['Admin']);
    await screen.findByText(/Times in America\/New_York/);
    await click(screen.getByRole('button', { name: /Schedule Maintenance/ }));
    const dialog = await dialogOf('Schedule Maintenance');
    await click(within(dialog).getByText('Chosen devices'));
    expect(await within(dialog).findByText(/the first by name; type to search them all/)).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: 'Roof' } });
    await vi.waitFor(
      () => expect(calls.some((c) => c.path === '/v0/api/devices' && c.search.get('filter')?.includes('"q":"Roof"'))).toBe(true),
      {
        timeout: 8000,
      },
    );
    await click(await screen.findByText('Roof Camera 1203', { selector: '.ant-select-item-option-content' }));
    // Once the search is cleared the options are the first page again, and the chosen device keeps its name.
    await screen.findByText('Gate Camera', { selector: '.ant-select-item-option-content' });
    expect(screen.getByText('Roof Camera 1203', { selector: '.ant-select-item-option-content' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Starts'), { target: { value: '2099-07-01T10:00' } });
    fireEvent.change(within(dialog).getByLabelText('Ends'), { target: { value: '2099-07-01T12:00' } });
    await click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await vi.waitFor(() => expect(posted).toBeDefined(), { timeout: 8000 });
    expect((posted as { deviceIds: number[] }).deviceIds).toEqual([1203]);
    expect(JSON.parse(lastCall('GET', '/v0/api/devices')!.search.get('filter')!)).toMatchObject({ customerId: 11 });
  });
});
