import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFY_MSG, type NotificationChannel, type NotificationDelivery, type Role } from '@vigil/contracts';
import { api } from '../../lib/api/apiSlice.ts';
import { notify } from '../../lib/notify.ts';
import { authReducer, signedOutState, type AuthState } from '../../lib/session/authSlice.ts';
import { pageInfoReducer } from '../../lib/state/uiSlices.ts';
import { bodyOfForm, emptyChannelForm, splitAddresses } from './components/ChannelDialog.tsx';
import { NotificationChannelsPanel } from './components/NotificationChannelsPanel.tsx';
import { minutesText } from './labels.ts';
import DeliveriesPage from './pages/DeliveriesPage.tsx';
import { json, stubRelativeRequests } from '../../test/http-stubs.ts';

// Generous waits: the machine running the suite is shared and antd's first render is slow there.
configure({ asyncUtilTimeout: 8000 });
const WAIT = { timeout: 8000 };

const hook: NotificationChannel = {
  id: 3,
  name: 'Ops hook',
  type: 'webhook',
  target: 'https://hooks.example.com/vigil',
  enabled: true,
  events: ['alert.opened', 'alert.resolved'],
  customerIds: [],
  delayMinutes: 5,
  repeatMinutes: 0,
  secret: 'whsec_c2VjcmV0LW9uZQ==',
};
const admins: NotificationChannel = {
  id: 1,
  name: 'Admins',
  type: 'email',
  target: ['boss@example.com', 'ops@example.com'],
  enabled: false,
  events: ['alert.opened'],
  customerIds: [11],
  delayMinutes: 90,
  repeatMinutes: 60,
  secret: null,
};

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

// antd dialogs in jsdom on a shared 2-core machine: a flow of several dialogs takes tens of seconds.
describe('notifications (web)', { timeout: 60_000 }, () => {
  let calls: Call[];
  let channels: NotificationChannel[];
  let deliveries: NotificationDelivery[];
  let answers: Record<string, (call: Call) => Response>;
  beforeEach(() => {
    calls = [];
    channels = [admins, { ...hook }];
    deliveries = [];
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
        if (url.pathname === '/v0/api/customers/all') return json({ data: { list: [{ id: 11, name: 'Harbor Mall' }], count: 1 } });
        if (url.pathname === '/v0/api/notification-channels' && req.method === 'GET')
          return json({ data: { list: channels, count: channels.length } });
        if (url.pathname === '/v0/api/notifications') return json({ data: { list: deliveries, count: deliveries.length } });
        return json({ error: 'not mocked' }, 404);
      }),
    );
    stubRelativeRequests();
    vi.spyOn(notify, 'success').mockImplementation(() => undefined);
    vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    vi.spyOn(notify, 'warning').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  function mount(roles: Role[], path = '/dashboards/settings') {
    const store = configureStore({
      reducer: { auth: authReducer, pageInfo: pageInfoReducer, [api.reducerPath]: api.reducer },
      preloadedState: {
        auth: { ...signedOutState, accessTaken: 'token', roles, tenantId: 42, tenantName: 'Acme', userId: 7 } satisfies AuthState,
      },
      middleware: (d) => d().concat(api.middleware),
    });
    const router = createMemoryRouter(
      [
        { path: '/dashboards/settings', element: <NotificationChannelsPanel /> },
        { path: '/dashboards/settings/notifications/deliveries', element: <DeliveriesPage /> },
        { path: '/dashboards/alerts/:id', element: <p>Alert page</p> },
      ],
      { initialEntries: [path] },
    );
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    return { store, router };
  }
  const click = (el: HTMLElement) => act(() => Promise.resolve(fireEvent.click(el)));
  const dialogOf = async (title: string) =>
    (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
  const lastCall = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).at(-1);

  it('pure helpers: addresses split on lines, commas and semicolons; minutes read as words; the form body carries the target of its type', () => {
    expect(splitAddresses(' a@x.io,b@x.io;\n c@x.io  ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    expect(splitAddresses(undefined)).toEqual([]);
    expect(minutesText(0, 'Never')).toBe('Never');
    expect(minutesText(90, 'Never')).toBe('1 h 30 min');
    expect(minutesText(5, 'None')).toBe('5 min');
    expect(bodyOfForm({ ...emptyChannelForm, name: ' Hook ', url: ' https://h.example/x ' })).toEqual({
      name: 'Hook',
      type: 'webhook',
      target: 'https://h.example/x',
      enabled: true,
      events: ['alert.opened', 'alert.resolved'],
      customerIds: [],
      delayMinutes: 5,
      repeatMinutes: 0,
    });
    expect(bodyOfForm({ ...emptyChannelForm, name: 'Mail', type: 'email', emails: 'a@x.io\nb@x.io', url: 'ignored' }).target).toEqual([
      'a@x.io',
      'b@x.io',
    ]);
  });

  it('an Admin sees the channels with their targets, portals and timings, and every action', async () => {
    mount(['Admin']);
    expect(await screen.findByText('Ops hook')).toBeTruthy();
    expect(screen.getByText('boss@example.com, ops@example.com')).toBeTruthy();
    const table = document.querySelector('.ant-table') as HTMLElement;
    expect(await within(table).findByText('Harbor Mall')).toBeTruthy();
    expect(within(table).getByText('Every portal')).toBeTruthy();
    expect(screen.getByText('1 h 30 min')).toBeTruthy();
    expect(screen.getByText('Never')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Add Channel/ })).toBeTruthy();
    expect(screen.getAllByRole('switch')).toHaveLength(2);
    for (const name of ['Edit Ops hook', 'Test Ops hook', 'Delete Ops hook', 'Deliveries of Ops hook'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    const list = lastCall('GET', '/v0/api/notification-channels')!;
    expect(JSON.parse(list.search.get('sort')!)).toEqual(['name', 'ASC']);
  });

  it('a Salesman reads only: no Add Channel, no switch, no edit, test or delete; the delivery log stays reachable', async () => {
    mount(['Salesman']);
    expect(await screen.findByText('Ops hook')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add Channel/ })).toBeNull();
    expect(screen.queryAllByRole('switch')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Edit Ops hook' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test Ops hook' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Ops hook' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Deliveries of Ops hook' })).toBeTruthy();
    expect(screen.getByText('Disabled')).toBeTruthy();
    expect(screen.getAllByText('Enabled').length).toBeGreaterThan(0);
  });

  it('Add Channel: the contract messages first, then a valid webhook is created, toasted, and its secret shown', async () => {
    const created: NotificationChannel = {
      ...hook,
      id: 9,
      name: 'Pager',
      target: 'https://pager.example.com/in',
      secret: 'whsec_bmV3LXNlY3JldA==',
    };
    answers['POST /v0/api/notification-channels'] = () => json({ data: created }, 201);
    mount(['Project Manager']);
    await click(await screen.findByRole('button', { name: /Add Channel/ }));
    const dialog = await dialogOf('Add Channel');
    await click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(await within(dialog).findByText(NOTIFY_MSG.name)).toBeTruthy();
    expect(await within(dialog).findByText(NOTIFY_MSG.urlTarget)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Pager' } });
    fireEvent.change(within(dialog).getByLabelText('Webhook URL'), { target: { value: 'ftp://pager.example.com' } });
    expect(await within(dialog).findByText(NOTIFY_MSG.urlFormat)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Delay (minutes)'), { target: { value: '2000' } });
    expect(await within(dialog).findByText(NOTIFY_MSG.delayMinutes)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Webhook URL'), { target: { value: ' https://pager.example.com/in ' } });
    fireEvent.change(within(dialog).getByLabelText('Delay (minutes)'), { target: { value: '10' } });
    await click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith('Channel added.'), WAIT);
    expect(lastCall('POST', '/v0/api/notification-channels')!.body).toEqual({
      name: 'Pager',
      type: 'webhook',
      target: 'https://pager.example.com/in',
      enabled: true,
      events: ['alert.opened', 'alert.resolved'],
      customerIds: [],
      delayMinutes: 10,
      repeatMinutes: 0,
    });
    const secretDialog = await dialogOf('Webhook channel added');
    expect(within(secretDialog).getByText('whsec_bmV3LXNlY3JldA==')).toBeTruthy();
  });

  it('an email channel needs valid addresses; the list of addresses is sent; a refused target shows under the field', async () => {
    answers['POST /v0/api/notification-channels'] = () => json({ error: NOTIFY_MSG.privateTarget }, 400);
    mount(['Admin']);
    await click(await screen.findByRole('button', { name: /Add Channel/ }));
    const dialog = await dialogOf('Add Channel');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Mail' } });
    await click(within(dialog).getByRole('radio', { name: 'Email' }));
    const box = await within(dialog).findByLabelText('Email addresses');
    fireEvent.change(box, { target: { value: 'ops@example.com, not-an-address' } });
    expect(await within(dialog).findByText(NOTIFY_MSG.emailFormat)).toBeTruthy();
    fireEvent.change(box, { target: { value: 'ops@example.com\nlead@example.com' } });
    await vi.waitFor(() => expect(within(dialog).queryByText(NOTIFY_MSG.emailFormat)).toBeNull(), WAIT);
    // A webhook target refused by the server (private address) for the URL types:
    await click(within(dialog).getByRole('radio', { name: 'Slack' }));
    fireEvent.change(await within(dialog).findByLabelText('Slack incoming-webhook URL'), { target: { value: 'http://10.0.0.5/hook' } });
    await click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(await within(dialog).findByText(NOTIFY_MSG.privateTarget)).toBeTruthy();
    expect(lastCall('POST', '/v0/api/notification-channels')!.body).toMatchObject({ type: 'slack', target: 'http://10.0.0.5/hook' });
    expect(notify.success).not.toHaveBeenCalled();

    answers['POST /v0/api/notification-channels'] = () => json({ data: { ...admins, id: 12, name: 'Mail' } }, 201);
    await click(within(dialog).getByRole('radio', { name: 'Email' }));
    await click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith('Channel added.'), WAIT);
    expect(lastCall('POST', '/v0/api/notification-channels')!.body).toMatchObject({
      type: 'email',
      target: ['ops@example.com', 'lead@example.com'],
    });
    expect(screen.queryByText('Webhook channel added')).toBeNull();
  });

  it('the switch, Test and Delete (after its confirm) call the API and confirm with a toast', async () => {
    answers['PATCH /v0/api/notification-channels/3'] = (c) => json({ data: { ...hook, ...(c.body as object) } });
    answers['POST /v0/api/notification-channels/3/test'] = () =>
      json({
        data: {
          id: 50,
          channelId: 3,
          channelName: 'Ops hook',
          alertId: null,
          event: 'test',
          status: 'sent',
          attempts: 1,
          lastError: null,
          createdAt: '2026-11-27T09:00:00.000Z',
          sentAt: '2026-11-27T09:00:01.000Z',
        },
      });
    answers['DELETE /v0/api/notification-channels/3'] = () => json({ ok: true });
    mount(['Admin']);
    await screen.findByText('Ops hook');
    await click(screen.getByRole('switch', { name: 'Enable Ops hook' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith('Channel disabled.'), WAIT);
    expect(lastCall('PATCH', '/v0/api/notification-channels/3')!.body).toEqual({ enabled: false });

    await click(screen.getByRole('button', { name: 'Test Ops hook' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith(NOTIFY_MSG.testSent), WAIT);
    expect(lastCall('POST', '/v0/api/notification-channels/3/test')).toBeTruthy();

    await click(screen.getByRole('button', { name: 'Delete Ops hook' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await click(await screen.findByRole('button', { name: 'Yes' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith('Channel deleted.'), WAIT);
    expect(lastCall('DELETE', '/v0/api/notification-channels/3')).toBeTruthy();
  });

  it('a failed test shows the delivery error', async () => {
    answers['POST /v0/api/notification-channels/3/test'] = () =>
      json({
        data: {
          id: 51,
          channelId: 3,
          channelName: 'Ops hook',
          alertId: null,
          event: 'test',
          status: 'failed',
          attempts: 1,
          lastError: 'HTTP 500 from the receiver',
          createdAt: '2026-11-27T09:00:00.000Z',
          sentAt: null,
        },
      });
    mount(['Admin']);
    await click(await screen.findByRole('button', { name: 'Test Ops hook' }));
    await vi.waitFor(() => expect(notify.error).toHaveBeenCalledWith('HTTP 500 from the receiver'), WAIT);
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('Edit: the fields are filled, the webhook secret shows with Rotate secret, and Save sends the edited channel', async () => {
    answers['POST /v0/api/notification-channels/3/secret'] = () => json({ data: { ...hook, secret: 'whsec_cm90YXRlZA==' } });
    answers['PATCH /v0/api/notification-channels/3'] = (c) => json({ data: { ...hook, ...(c.body as object) } });
    mount(['Admin']);
    await click(await screen.findByRole('button', { name: 'Edit Ops hook' }));
    const dialog = await dialogOf('Edit Channel');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('Ops hook');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Webhook URL').value).toBe('https://hooks.example.com/vigil');
    expect(within(dialog).getByText('whsec_c2VjcmV0LW9uZQ==')).toBeTruthy();
    await click(within(dialog).getByRole('button', { name: /Rotate secret/ }));
    await click(await screen.findByRole('button', { name: 'Yes' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith(NOTIFY_MSG.secretRotated), WAIT);
    expect(await within(dialog).findByText('whsec_cm90YXRlZA==')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Repeat every (minutes)'), { target: { value: '30' } });
    await click(within(dialog).getByRole('button', { name: 'Save Channel' }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith('Channel updated.'), WAIT);
    expect(lastCall('PATCH', '/v0/api/notification-channels/3')!.body).toMatchObject({
      name: 'Ops hook',
      type: 'webhook',
      target: 'https://hooks.example.com/vigil',
      repeatMinutes: 30,
    });
  });

  it('the delivery log lists deliveries with status, error and alert link, and filters by channel and status in the address bar', async () => {
    deliveries = [
      {
        id: 8,
        channelId: 3,
        channelName: 'Ops hook',
        alertId: 77,
        event: 'alert.opened',
        status: 'failed',
        attempts: 6,
        lastError: 'HTTP 503 from the receiver after six attempts',
        createdAt: '2026-11-27T08:00:00.000Z',
        sentAt: null,
      },
      {
        id: 9,
        channelId: 1,
        channelName: 'Admins',
        alertId: null,
        event: 'test',
        status: 'sent',
        attempts: 1,
        lastError: null,
        createdAt: '2026-11-27T08:05:00.000Z',
        sentAt: '2026-11-27T08:05:01.000Z',
      },
    ];
    const { router } = mount(['Salesman'], '/dashboards/settings/notifications/deliveries?filter=%7B%22channelId%22%3A3%7D');
    expect(await screen.findByText('HTTP 503 from the receiver after six attempts')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    expect(screen.getByText('Sent')).toBeTruthy();
    expect(screen.getByText('Alert opened')).toBeTruthy();
    const first = lastCall('GET', '/v0/api/notifications')!;
    expect(JSON.parse(first.search.get('filter')!)).toEqual({ channelId: 3 });
    expect(JSON.parse(first.search.get('sort')!)).toEqual(['createdAt', 'DESC']);

    await act(() => router.navigate('/dashboards/settings/notifications/deliveries?filter=%7B%22status%22%3A%22failed%22%7D'));
    await vi.waitFor(
      () => expect(JSON.parse(lastCall('GET', '/v0/api/notifications')!.search.get('filter')!)).toEqual({ status: 'failed' }),
      WAIT,
    );

    await click(screen.getByRole('link', { name: '#77' }));
    expect(await screen.findByText('Alert page')).toBeTruthy();
  });
});
