/**
 * Notifications under an outage storm (issue 22 item 7): 1,000 devices (tiny: 100) over (up to) 100 portals of the
 * main tenant go offline within seconds, each by its own signed webhook report with status offline
 * (lib/webhook.ts, as the ingestion phase sends them), at 10 connections, as fast as the server takes
 * them. Steps:
 *
 * 1. Every device of the storm's portals reports online; wait until those portals hold no open
 *    Device Offline alert (the seeded ones resolve).
 * 2. The storm without any channel (the baseline), then recovery (all back online, alerts resolved).
 * 3. One webhook channel (to a local HTTP receiver verifying the Standard Webhooks signature) and one
 *    email channel (mail to a local SMTP receiver the bench started before the server: SMTP_URL),
 *    both through the API, delay 0, alert.opened + alert.resolved, the storm's portals.
 * 4. The same storm with the channels; wait until every portal's alert.opened arrived at both
 *    receivers (or 60 s), then 3 s more for any duplicate.
 * 5. Recovery; wait until every notified alert's alert.resolved arrived (or 60 s), then 3 s more.
 * 6. Both channels disabled (PATCH), the storm and recovery again: the baseline is the mean of the
 *    storms without channels right before and right after the measured one (the first is also the
 *    server's first such burst).
 *
 * Figures: alert.opened per channel (at most one per portal), delivery latency from the end of the
 * delay (alert createdAt + delayMinutes) to arrival at the receiver, ingestion rate of the storm with
 * the channels against the storm without them, alert.resolved per notified alert.
 */
import { getJson } from '../lib/auth.ts';
import type { BenchContext } from '../lib/context.ts';
import { startWebhookReceiver, type Arrival, type SmtpReceiver } from '../lib/notify-receivers.ts';
import type { BenchServer } from '../lib/server.ts';
import { percentile } from '../lib/stats.ts';
import { reportsFor, signedReport } from '../lib/webhook.ts';
import type { SeededPortal } from '../seed.ts';

/** The largest ingestion batch (ingestion.ts): devices 1..1000 of every portal exist after it. */
const INGESTION_DEVICES_PER_PORTAL = 1000;
/** Reports per webhook message in the clean start (well inside the 1 MiB body limit). */
const REPORTS_PER_MESSAGE = 1000;

const STORM_DEVICES = 1_000;
/** The smoke run (tiny) keeps to toy scale: a storm of 100 devices. */
const TINY_STORM_DEVICES = 100;
const STORM_PORTALS = 100;
const CONNECTIONS = 10;
/** The channels' delay: 0, so the delay ends when the alert opens. */
const DELAY_MINUTES = 0;
const GROUP = 'Notifications (outage storm)';

/** Set by run.ts before the server starts: the SMTP receiver the server mails through. */
export const smtpReceivers = new WeakMap<BenchContext, SmtpReceiver>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

async function api<T>(server: BenchServer, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${method} ${path}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

/** The storm's portals that hold an open Device Offline alert now. */
async function portalsWithOpenAlerts(server: BenchServer, token: string, portals: Set<number>): Promise<Set<number>> {
  const open = new Set<number>();
  for (const status of [1, 2]) {
    const page = await getJson<{ data: { list: { customerId: number }[] } }>(
      `${server.url}/v0/api/alert-stats?filter=${q({ alertType: 0, status })}&range=${q([0, 1000])}&sort=${q(['id', 'DESC'])}`,
      token,
    );
    for (const a of page.data.list) if (portals.has(a.customerId)) open.add(a.customerId);
  }
  return open;
}

/** One signed report per device, `CONNECTIONS` at a time; answers the events per second. */
async function sendStatuses(
  server: BenchServer,
  portals: SeededPortal[],
  perPortal: number,
  status: 0 | 1,
  /** Filled with when each portal's first report was sent (ms since the epoch). */
  firstSent?: Map<number, number>,
): Promise<number> {
  const total = portals.length * perPortal;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let k = next++; k < total; k = next++) {
      const portal = portals[k % portals.length];
      const msg = signedReport(portal, reportsFor(portal.id, 1 + Math.floor(k / portals.length), 1, status));
      if (firstSent && !firstSent.has(portal.id)) firstSent.set(portal.id, performance.timeOrigin + performance.now());
      const res = await fetch(`${server.url}${msg.path}`, { method: 'POST', headers: msg.headers, body: msg.body });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`storm: webhook answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return total / ((performance.now() - started) / 1000);
}

interface Deliveries {
  list: { alertId: number | null; event: string; status: string; attempts: number }[];
}

async function deliveriesOf(server: BenchServer, token: string, channelId: number): Promise<Deliveries['list']> {
  const page = await getJson<{ data: Deliveries }>(
    `${server.url}/v0/api/notifications?filter=${q({ channelId })}&range=${q([0, 1000])}`,
    token,
  );
  return page.data.list;
}

/** Arrivals of one event, counted per portal and per alert. */
function tally(arrivals: Arrival[], event: Arrival['event']) {
  const of = arrivals.filter((a) => a.event === event);
  const perPortal = new Map<string, number>();
  const perAlert = new Map<number, number>();
  for (const a of of) {
    perPortal.set(a.portal ?? '?', (perPortal.get(a.portal ?? '?') ?? 0) + 1);
    if (a.alertId !== undefined) perAlert.set(a.alertId, (perAlert.get(a.alertId) ?? 0) + 1);
  }
  return { count: of.length, portals: perPortal.size, maxPerPortal: Math.max(0, ...perPortal.values()), perAlert, arrivals: of };
}

export async function measureNotifications(ctx: BenchContext, server: BenchServer): Promise<void> {
  const smtp = smtpReceivers.get(ctx);
  if (!smtp) throw new Error('notifications: no SMTP receiver (run.ts starts it before the server)');
  const token = await ctx.sign(ctx.main);
  const portals = ctx.main.portals.slice(0, STORM_PORTALS);
  const portalIds = new Set(portals.map((p) => p.id));
  const perPortal = Math.ceil((ctx.size.name === 'tiny' ? TINY_STORM_DEVICES : STORM_DEVICES) / portals.length);
  const devices = portals.length * perPortal;
  // The ingestion phases' batches of 1,000 create devices dev-1..dev-1000 in every portal (some left
  // offline), so a clean start reports at least that many online, not only the seeded ones.
  const everyDevice = Math.max(perPortal, ctx.main.devicesPerPortal, INGESTION_DEVICES_PER_PORTAL);
  console.log(`  storm: ${devices} devices over ${portals.length} portals, ${CONNECTIONS} connections, one device per report`);

  // 1. A clean start: every device of the storm's portals online, their alerts resolved.
  for (const portal of portals) {
    for (let first = 1; first <= everyDevice; first += REPORTS_PER_MESSAGE) {
      const msg = signedReport(portal, reportsFor(portal.id, first, Math.min(REPORTS_PER_MESSAGE, everyDevice - first + 1), 1));
      const res = await fetch(`${server.url}${msg.path}`, { method: 'POST', headers: msg.headers, body: msg.body });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`notifications: the online report answered ${res.status}`);
    }
  }
  const allClear = () => portalsWithOpenAlerts(server, token, portalIds).then((open) => open.size === 0);
  if (!(await waitUntil(allClear, 60_000)))
    throw new Error('notifications: the storm portals still had open alerts 60 s after all their devices reported online');

  // 2. The storm without channels: the baseline rate; then recovery.
  const withoutChannels = await sendStatuses(server, portals, perPortal, 0);
  const allOpen = () => portalsWithOpenAlerts(server, token, portalIds).then((open) => open.size === portals.length);
  if (!(await waitUntil(allOpen, 60_000))) throw new Error('notifications: not every storm portal had an open alert 60 s after the storm');
  await sendStatuses(server, portals, perPortal, 1);
  if (!(await waitUntil(allClear, 60_000))) throw new Error('notifications: the baseline storm alerts did not resolve within 60 s');

  // 3. The channels, through the API.
  const receiver = await startWebhookReceiver();
  try {
    const common = { events: ['alert.opened', 'alert.resolved'], customerIds: [...portalIds], delayMinutes: DELAY_MINUTES };
    const hook = await api<{ data: { id: number; secret: string } }>(server, token, 'POST', '/v0/api/notification-channels', {
      name: 'Bench storm webhook',
      type: 'webhook',
      target: receiver.url,
      ...common,
    });
    receiver.setSecret(hook.data.secret);
    const mail = await api<{ data: { id: number } }>(server, token, 'POST', '/v0/api/notification-channels', {
      name: 'Bench storm email',
      type: 'email',
      target: ['storm@bench.vigil.test'],
      ...common,
    });
    const smtpBefore = smtp.arrivals.length;
    const mailArrivals = () => smtp.arrivals.slice(smtpBefore);

    // 4. The storm with the channels.
    const firstSent = new Map<number, number>();
    const withChannels = await sendStatuses(server, portals, perPortal, 0, firstSent);
    const stormEnded = Date.now();
    const everyPortalAnnounced = () =>
      tally(receiver.arrivals, 'alert.opened').portals >= portals.length && tally(mailArrivals(), 'alert.opened').portals >= portals.length;
    const announced = await waitUntil(everyPortalAnnounced, 60_000);
    const settleSeconds = (Date.now() - stormEnded) / 1000;
    await sleep(3_000);
    const openedHook = tally(receiver.arrivals, 'alert.opened');
    const openedMail = tally(mailArrivals(), 'alert.opened');

    // 5. Recovery.
    await sendStatuses(server, portals, perPortal, 1);
    const notified = new Set([...openedHook.perAlert.keys(), ...openedMail.perAlert.keys()]);
    const everyResolved = () =>
      [...openedHook.perAlert.keys()].every((id) => tally(receiver.arrivals, 'alert.resolved').perAlert.has(id)) &&
      [...openedMail.perAlert.keys()].every((id) => tally(mailArrivals(), 'alert.resolved').perAlert.has(id));
    const resolvedInTime = await waitUntil(everyResolved, 60_000);
    await sleep(3_000);
    const resolvedHook = tally(receiver.arrivals, 'alert.resolved');
    const resolvedMail = tally(mailArrivals(), 'alert.resolved');

    // What the server stored (a duplicate delivery row would show here even if the receiver missed it).
    const stored = async (channelId: number) => {
      const rows = await deliveriesOf(server, token, channelId);
      const key = (r: Deliveries['list'][number]) => `${r.event}/${r.alertId}`;
      const counts = new Map<string, number>();
      for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
      return {
        rows: rows.length,
        duplicates: [...counts.values()].filter((n) => n > 1).length,
        notSent: rows.filter((r) => r.status !== 'sent').length,
        retried: rows.filter((r) => r.attempts > 1).length,
      };
    };
    const storedHook = await stored(hook.data.id);
    const storedMail = await stored(mail.data.id);

    // 6. The storm without channels again (both disabled), so the baseline brackets the measured storm.
    if (!(await waitUntil(allClear, 60_000))) throw new Error('notifications: the storm alerts did not resolve within 60 s');
    for (const id of [hook.data.id, mail.data.id])
      await api(server, token, 'PATCH', `/v0/api/notification-channels/${id}`, { enabled: false });
    const arrivedBefore = receiver.arrivals.length + mailArrivals().length;
    const withoutChannelsAfter = await sendStatuses(server, portals, perPortal, 0);
    if (!(await waitUntil(allOpen, 60_000)))
      throw new Error('notifications: not every storm portal had an open alert 60 s after the last storm');
    await sendStatuses(server, portals, perPortal, 1);
    if (!(await waitUntil(allClear, 60_000))) throw new Error('notifications: the last storm alerts did not resolve within 60 s');
    const strayArrivals = receiver.arrivals.length + mailArrivals().length - arrivedBefore;
    const baseline = (withoutChannels + withoutChannelsAfter) / 2;

    // Latency from the end of the delay: the alert's createdAt (webhook payload, else the API) + delay.
    // Also from the portal's first offline report of the storm (the alert opens after it).
    const createdAt = new Map<number, number>();
    const portalOf = new Map<number, number>();
    for (const a of openedHook.arrivals)
      if (a.alertId && a.alertCreatedAt) {
        createdAt.set(a.alertId, Date.parse(a.alertCreatedAt));
        portalOf.set(a.alertId, Number(a.portal));
      }
    for (const id of openedMail.perAlert.keys()) {
      if (createdAt.has(id)) continue;
      const alert = await getJson<{ data: { createdAt: string; customerId: number } }>(`${server.url}/v0/api/alert-stats/${id}`, token);
      createdAt.set(id, Date.parse(alert.data.createdAt));
      portalOf.set(id, alert.data.customerId);
    }
    const fromReport = (arrivals: Arrival[]) => {
      const first = new Map<number, number>();
      for (const a of arrivals) if (a.alertId !== undefined && !first.has(a.alertId)) first.set(a.alertId, a.at);
      return [...first].flatMap(([id, at]) => {
        const sent = firstSent.get(portalOf.get(id) ?? -1);
        return sent === undefined ? [] : [at - sent];
      });
    };
    const latencies = (arrivals: Arrival[]) => {
      const first = new Map<number, number>();
      for (const a of arrivals) if (a.alertId !== undefined && !first.has(a.alertId)) first.set(a.alertId, a.at);
      return [...first].filter(([id]) => createdAt.has(id)).map(([id, at]) => at - createdAt.get(id)! - DELAY_MINUTES * 60_000);
    };

    const storedText = (s: Awaited<ReturnType<typeof stored>>) =>
      `${s.rows} deliveries stored (${s.duplicates} duplicate event/alert pairs, ${s.notSent} not sent, ${s.retried} retried)`;
    const openedRow = (channel: string, t: ReturnType<typeof tally>, s: Awaited<ReturnType<typeof stored>>, extra = '') =>
      ctx.results.add({
        group: GROUP,
        name: `alert.opened to the ${channel} channel`,
        value: t.count,
        unit: 'messages',
        detail:
          `${t.portals} of ${portals.length} portals announced, at most ${t.maxPerPortal} per portal, ${storedText(s)}${extra}` +
          (announced ? '' : '; not every portal announced within 60 s of the storm'),
        target: `<= ${STORM_PORTALS}, at most 1 per portal`,
        met: t.count <= STORM_PORTALS && t.maxPerPortal <= 1 && s.duplicates === 0,
      });
    openedRow('webhook', openedHook, storedHook, `, ${receiver.refused} refused by the signature check`);
    openedRow('email', openedMail, storedMail);

    for (const [channel, t] of [
      ['webhook', openedHook],
      ['email', openedMail],
    ] as const) {
      const ms = latencies(t.arrivals);
      const p99 = percentile(ms, 99);
      const fromSent = fromReport(t.arrivals);
      ctx.results.add({
        group: GROUP,
        name: `delivery latency, ${channel} (alert createdAt + delay to arrival)`,
        value: percentile(ms, 50),
        unit: 'ms p50',
        detail:
          `p99 ${Math.round(p99)} ms, max ${Math.round(Math.max(...ms))} ms, ${ms.length} alerts; ` +
          `from the portal's first offline report: p50 ${Math.round(percentile(fromSent, 50))} ms, p99 ${Math.round(percentile(fromSent, 99))} ms; ` +
          `every portal's alert.opened at both receivers ${settleSeconds.toFixed(1)} s after the storm's last report was answered`,
        target: 'p99 <= 5 s',
        met: ms.length > 0 ? p99 <= 5_000 : null,
      });
    }

    ctx.results.add({
      group: GROUP,
      name: `ingestion during the storm with both channels (${devices} devices, ${CONNECTIONS} conn)`,
      value: withChannels,
      unit: 'events/s',
      detail:
        `the storm took ${(devices / withChannels).toFixed(1)} s (${devices / withChannels <= 10 ? 'within' : 'longer than'} 10 s); ` +
        `without channels right before ${Math.round(withoutChannels)} and right after ${Math.round(withoutChannelsAfter)} events/s` +
        (strayArrivals ? `; ${strayArrivals} messages arrived while the channels were disabled` : ''),
      baseline: { name: 'the same storm without channels (mean of the runs before and after)', value: baseline, unit: 'events/s' },
      ratio: withChannels / baseline,
      target: '>= 0.8x without channels',
      met: withChannels >= 0.8 * baseline,
    });

    const maxResolved = Math.max(0, ...resolvedHook.perAlert.values(), ...resolvedMail.perAlert.values());
    const strays = [...resolvedHook.perAlert.keys(), ...resolvedMail.perAlert.keys()].filter((id) => !notified.has(id)).length;
    ctx.results.add({
      group: GROUP,
      name: 'alert.resolved per notified alert after recovery',
      value: maxResolved,
      unit: 'at most',
      detail:
        `webhook ${resolvedHook.count} for ${openedHook.perAlert.size} notified alerts, email ${resolvedMail.count} for ${openedMail.perAlert.size}, ` +
        `${strays} for alerts never announced` +
        (resolvedInTime ? '' : '; not every notified alert resolved at the receivers within 60 s'),
      target: '<= 1 per notified alert',
      met: maxResolved <= 1 && strays === 0 && resolvedInTime,
    });
  } finally {
    await receiver.close();
  }
}
