import { ALERT_TYPE, DEVICE_TYPES, PRODUCT_NAME, type DeliveryEvent, type NotificationPayload } from '@vigil/contracts';

/**
 * What each channel type says about an announcement (docs/notifications.md "Messages"): the portal,
 * how many devices, which ones (name, type, model, since when) and the link to the alert's page.
 */
export type PayloadData = NotificationPayload['data'];

/** Devices listed by name in a message; the count says how many there are in all. */
const LISTED_DEVICES = 20;

const typeLabel = (code: number) => DEVICE_TYPES[code] ?? 'Unknown';
const utc = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'unknown');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Email subject (docs/notifications.md): the product's texts for opened, resolved and license renewal. */
export function subjectOf(event: DeliveryEvent, data: PayloadData, channelName: string): string {
  const { alert } = data;
  if (event === 'test') return `[${PRODUCT_NAME}] Test message for channel ${channelName}`;
  if (alert.alertType === ALERT_TYPE.licenseRenewal) {
    return event === 'alert.resolved'
      ? `[${PRODUCT_NAME}] ${alert.customerName}: license renewal handled`
      : `[${PRODUCT_NAME}] ${alert.customerName}: license renewal pending`;
  }
  if (event === 'alert.resolved') return `[${PRODUCT_NAME}] ${alert.customerName}: back online`;
  return `[${PRODUCT_NAME}] ${alert.customerName}: ${alert.offlineCount} devices offline`;
}

/** The headline and the one-paragraph summary every message type shows. */
export function summaryOf(event: DeliveryEvent, data: PayloadData): { title: string; lines: string[] } {
  const { alert } = data;
  const since = utc(alert.createdAt);
  if (event === 'test') {
    return { title: `${PRODUCT_NAME}: test message`, lines: ['This channel works: this is how alerts will look.'] };
  }
  if (alert.alertType === ALERT_TYPE.licenseRenewal) {
    const what =
      event === 'alert.resolved'
        ? `The license renewal alert of ${alert.customerName} is resolved (${utc(alert.resolvedAt)}).`
        : `A license of ${alert.customerName} covering ${plural(alert.offlineCount, 'device', 'devices')} ends within 90 days (alert open since ${since}).`;
    return { title: `${alert.customerName}: license renewal ${event === 'alert.resolved' ? 'handled' : 'pending'}`, lines: [what] };
  }
  if (event === 'alert.resolved') {
    return {
      title: `${alert.customerName}: back online`,
      lines: [
        `All devices of the Device Offline alert of ${alert.customerName} are back (offline from ${since} to ${utc(alert.resolvedAt)}).`,
      ],
    };
  }
  const still = event === 'alert.repeated' ? 'still ' : '';
  return {
    title: `${alert.customerName}: ${plural(alert.offlineCount, 'device', 'devices')} ${still}offline`,
    lines: [
      `${plural(alert.offlineCount, 'device is', 'devices are')} ${still}offline at ${alert.customerName} since ${since}.` +
        (alert.ackedAt ? ` Acknowledged ${utc(alert.ackedAt)}.` : ''),
    ],
  };
}

/** One line per device: name, type, model, since when. */
export function deviceLines(data: PayloadData): string[] {
  const lines = data.devices.slice(0, LISTED_DEVICES).map((d) => {
    const model = d.deviceModel ? `, ${d.deviceModel}` : '';
    const state = d.status === 0 ? `offline, last online ${utc(d.lastOnline)}` : 'online now';
    return `${d.name} (${typeLabel(d.deviceType)}${model}): ${state}`;
  });
  const more = data.alert.offlineCount - lines.length;
  if (more > 0 && data.devices.length > 0) lines.push(`and ${plural(more, 'more device', 'more devices')}`);
  return lines;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function emailOf(event: DeliveryEvent, data: PayloadData, channelName: string): { subject: string; text: string; html: string } {
  const { title, lines } = summaryOf(event, data);
  const devices = deviceLines(data);
  const subject = subjectOf(event, data, channelName);
  const text = [
    title,
    '',
    ...lines,
    ...(devices.length ? ['', 'Devices:', ...devices.map((d) => `- ${d}`)] : []),
    '',
    'Open the alert:',
    data.url,
    '',
    `— ${PRODUCT_NAME}, channel "${channelName}"`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: Arial, sans-serif; color: #1f2933; line-height: 1.5">',
    `<h2 style="font-size: 18px">${escapeHtml(title)}</h2>`,
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    devices.length ? `<ul>${devices.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>` : '',
    `<p><a href="${escapeHtml(data.url)}" style="display: inline-block; padding: 10px 18px; background: #1668dc; color: #ffffff; text-decoration: none; border-radius: 6px">Open the alert</a></p>`,
    `<p style="font-size: 13px; color: #52606d">${escapeHtml(data.url)}<br>${PRODUCT_NAME}, channel "${escapeHtml(channelName)}"</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

const mrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack incoming webhook: Block Kit, with `text` as the notification's fallback. */
export function slackMessageOf(event: DeliveryEvent, data: PayloadData, channelName: string) {
  const { title, lines } = summaryOf(event, data);
  const devices = deviceLines(data);
  return {
    text: subjectOf(event, data, channelName),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: mrkdwn(lines.join('\n')) } },
      ...(devices.length
        ? [{ type: 'section', text: { type: 'mrkdwn', text: mrkdwn(devices.map((d) => `• ${d}`).join('\n')).slice(0, 3000) } }]
        : []),
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open alert' }, url: data.url }],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: mrkdwn(`${PRODUCT_NAME} · channel ${channelName}`) }] },
    ],
  };
}

/** Microsoft Teams workflow / incoming webhook: one Adaptive Card. */
export function teamsMessageOf(event: DeliveryEvent, data: PayloadData, channelName: string) {
  const { title, lines } = summaryOf(event, data);
  const facts = data.devices.slice(0, LISTED_DEVICES).map((d) => ({
    title: d.name,
    value: `${typeLabel(d.deviceType)}${d.deviceModel ? `, ${d.deviceModel}` : ''}: ${d.status === 0 ? `offline, last online ${utc(d.lastOnline)}` : 'online now'}`,
  }));
  const more = data.alert.offlineCount - facts.length;
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', size: 'Large', weight: 'Bolder', text: title, wrap: true },
            ...lines.map((text) => ({ type: 'TextBlock', text, wrap: true })),
            ...(facts.length ? [{ type: 'FactSet', facts }] : []),
            ...(more > 0 && facts.length
              ? [{ type: 'TextBlock', text: `and ${plural(more, 'more device', 'more devices')}`, wrap: true }]
              : []),
            { type: 'TextBlock', text: `${PRODUCT_NAME} · channel ${channelName}`, isSubtle: true, size: 'Small', wrap: true },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open alert', url: data.url }],
        },
      },
    ],
  };
}
