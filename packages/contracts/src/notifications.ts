import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';

/**
 * Notification channels and deliveries (docs/notifications.md). A channel announces a tenant's alerts
 * (opened, resolved, repeated) by email, signed webhook, Slack or Microsoft Teams; every announcement is
 * a stored delivery, sent at least once with retries.
 */
export const NOTIFICATION_CHANNEL_TYPES = ['email', 'webhook', 'slack', 'teams'] as const;
export type NotificationChannelType = (typeof NOTIFICATION_CHANNEL_TYPES)[number];

/** Events a channel may subscribe to (alert types 0 and 1 alike; the payload names `alertType`). */
export const NOTIFICATION_EVENTS = ['alert.opened', 'alert.resolved', 'alert.repeated'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
/** A delivery's event: a channel event, or `test` for the channel's Test button. */
export const DELIVERY_EVENTS = [...NOTIFICATION_EVENTS, 'test'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Channel defaults (docs/notifications.md). */
export const NOTIFICATION_DEFAULTS = {
  delayMinutes: 5,
  repeatMinutes: 0,
  events: ['alert.opened', 'alert.resolved'] as NotificationEvent[],
  /** Name of the email channel every new tenant starts with (to its Admins). */
  adminsChannelName: 'Admins',
} as const;

export const NOTIFICATION_LIMITS = {
  delayMinutesMax: 1440,
  repeatMinutesMax: 10080,
  emailAddressesMax: 50,
  customerIdsMax: 1000,
  urlMax: 2000,
} as const;

export const NOTIFY_MSG = {
  name: 'Please input channel name',
  type: 'Please select a channel type',
  emailTarget: 'Please input at least one email address',
  emailFormat: 'Each recipient must be a valid email address',
  emailTooMany: `At most ${NOTIFICATION_LIMITS.emailAddressesMax} email addresses`,
  urlTarget: 'Please input the webhook URL',
  urlFormat: 'The URL must start with http:// or https://',
  events: 'Please select at least one event',
  eventValue: `Events must be among ${NOTIFICATION_EVENTS.join(', ')}`,
  delayMinutes: `Delay must be a whole number of minutes from 0 to ${NOTIFICATION_LIMITS.delayMinutesMax}`,
  repeatMinutes: `Repeat interval must be a whole number of minutes from 0 to ${NOTIFICATION_LIMITS.repeatMinutesMax} (0 = never)`,
  customerIds: 'Portals must be a list of portal ids',
  unknownCustomer: 'A selected portal does not exist.',
  /** 400 at creation or edit; a delivery to such a target fails with the same text. */
  privateTarget: 'This target is not allowed: loopback, private and link-local addresses are refused.',
  unresolvableTarget: 'The target host could not be resolved.',
  typeChangeNeedsTarget: 'Changing the channel type needs a new target.',
  testSent: 'Test message sent.',
  secretRotated: 'Webhook secret rotated.',
} as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email channel's target: a JSON array of addresses. */
export const emailTargetSchema = z
  .array(z.string({ error: NOTIFY_MSG.emailFormat }).trim().max(320, NOTIFY_MSG.emailFormat).regex(EMAIL_RE, NOTIFY_MSG.emailFormat), {
    error: NOTIFY_MSG.emailTarget,
  })
  .min(1, NOTIFY_MSG.emailTarget)
  .max(NOTIFICATION_LIMITS.emailAddressesMax, NOTIFY_MSG.emailTooMany);

/** A webhook, Slack or Teams channel's target: an http or https URL (private addresses are checked by the server). */
export const urlTargetSchema = z
  .string({ error: NOTIFY_MSG.urlTarget })
  .trim()
  .min(1, NOTIFY_MSG.urlTarget)
  .max(NOTIFICATION_LIMITS.urlMax, `at most ${NOTIFICATION_LIMITS.urlMax} characters`)
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, NOTIFY_MSG.urlFormat);

/** The target a channel type needs: `email` an array of addresses, the others a URL. */
export function targetSchemaOf(type: NotificationChannelType) {
  return type === 'email' ? emailTargetSchema : urlTargetSchema;
}

export const channelTargetSchema = z.union([z.string(), z.array(z.string())]);

export const notificationChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(NOTIFICATION_CHANNEL_TYPES),
  /** `email`: array of addresses; `webhook`/`slack`/`teams`: URL. */
  target: channelTargetSchema,
  enabled: z.boolean(),
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
  /** Portals announced; empty = every portal. */
  customerIds: z.array(z.number().int()),
  /** An alert is announced only if still open after this many minutes (a flap inside sends nothing). */
  delayMinutes: z.number().int(),
  /** While open and not acknowledged, announce again every this many minutes; 0 = never. */
  repeatMinutes: z.number().int(),
  /**
   * The `whsec_` signing secret of a `webhook` channel, shown to Admins and Project Managers only;
   * null for other types and other roles.
   */
  secret: z.string().nullable(),
});
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

const nameField = z.string({ error: NOTIFY_MSG.name }).trim().min(1, NOTIFY_MSG.name).max(200, 'at most 200 characters');
const typeField = z.enum(NOTIFICATION_CHANNEL_TYPES, { error: NOTIFY_MSG.type });
const eventsField = z
  .array(z.enum(NOTIFICATION_EVENTS, { error: NOTIFY_MSG.eventValue }), { error: NOTIFY_MSG.events })
  .min(1, NOTIFY_MSG.events)
  .max(NOTIFICATION_EVENTS.length, NOTIFY_MSG.eventValue)
  .transform((events) => NOTIFICATION_EVENTS.filter((e) => events.includes(e)));
const customerIdsField = z
  .array(
    z
      .number({ error: NOTIFY_MSG.customerIds })
      .int(NOTIFY_MSG.customerIds)
      .positive(NOTIFY_MSG.customerIds)
      .max(2147483647, NOTIFY_MSG.customerIds),
    {
      error: NOTIFY_MSG.customerIds,
    },
  )
  .max(NOTIFICATION_LIMITS.customerIdsMax, NOTIFY_MSG.customerIds)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));
const delayField = z
  .number({ error: NOTIFY_MSG.delayMinutes })
  .int(NOTIFY_MSG.delayMinutes)
  .min(0, NOTIFY_MSG.delayMinutes)
  .max(NOTIFICATION_LIMITS.delayMinutesMax, NOTIFY_MSG.delayMinutes);
const repeatField = z
  .number({ error: NOTIFY_MSG.repeatMinutes })
  .int(NOTIFY_MSG.repeatMinutes)
  .min(0, NOTIFY_MSG.repeatMinutes)
  .max(NOTIFICATION_LIMITS.repeatMinutesMax, NOTIFY_MSG.repeatMinutes);

/** Checks `target` against `type` and reports the first problem at `target`. */
function checkTarget(type: NotificationChannelType, target: unknown, ctx: z.RefinementCtx) {
  const parsed = targetSchemaOf(type).safeParse(target);
  if (!parsed.success) {
    ctx.addIssue({
      code: 'custom',
      path: ['target', ...(parsed.error.issues[0]?.path ?? [])],
      message: parsed.error.issues[0]?.message ?? NOTIFY_MSG.urlTarget,
    });
  }
}

/** Normalised target: trimmed addresses (deduplicated) or trimmed URL. */
function normaliseTarget(type: NotificationChannelType, target: unknown): string | string[] {
  const parsed = targetSchemaOf(type).parse(target);
  return Array.isArray(parsed) ? [...new Set(parsed)] : parsed;
}

/** New channel dialog. Defaults: enabled, `alert.opened` + `alert.resolved`, every portal, 5-minute delay, no repeat. */
export const createChannelBody = z
  .strictObject({
    name: nameField,
    type: typeField,
    target: z.unknown(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
    events: eventsField.default([...NOTIFICATION_DEFAULTS.events]),
    customerIds: customerIdsField.default([]),
    delayMinutes: delayField.default(NOTIFICATION_DEFAULTS.delayMinutes),
    repeatMinutes: repeatField.default(NOTIFICATION_DEFAULTS.repeatMinutes),
  })
  .superRefine((body, ctx) => checkTarget(body.type, body.target, ctx))
  .transform((body) => ({ ...body, target: normaliseTarget(body.type, body.target) }));
export type CreateChannelBody = z.output<typeof createChannelBody>;
export type CreateChannelInput = z.input<typeof createChannelBody>;

/**
 * Edit channel: any subset of the fields. A new `target` is checked against the new `type` when
 * both are sent; otherwise the server checks it against the stored type. Changing `type` needs `target`.
 */
export const updateChannelBody = z
  .strictObject({
    name: nameField.optional(),
    type: typeField.optional(),
    target: z.unknown().optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
    events: eventsField.optional(),
    customerIds: customerIdsField.optional(),
    delayMinutes: delayField.optional(),
    repeatMinutes: repeatField.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type !== undefined && body.target === undefined) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: NOTIFY_MSG.typeChangeNeedsTarget });
    } else if (body.type !== undefined) {
      checkTarget(body.type, body.target, ctx);
    } else if (body.target !== undefined && !channelTargetSchema.safeParse(body.target).success) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: NOTIFY_MSG.urlTarget });
    }
  });
export type UpdateChannelBody = z.output<typeof updateChannelBody>;
export type UpdateChannelInput = z.input<typeof updateChannelBody>;

export const CHANNEL_SORT = ['id', 'name', 'type', 'enabled', 'delayMinutes', 'repeatMinutes'] as const;
export const channelListQuery = listQuery({
  sort: CHANNEL_SORT,
  filter: { q: qFilter, type: z.enum(NOTIFICATION_CHANNEL_TYPES).optional(), enabled: z.boolean().optional() },
});

/** One delivery: one announcement of one alert event (or a test) to one channel. */
export const notificationDeliverySchema = z.object({
  id: z.number().int(),
  channelId: z.number().int(),
  channelName: z.string(),
  /** Null for a test message. */
  alertId: z.number().int().nullable(),
  event: z.enum(DELIVERY_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: isoDateTime,
  sentAt: isoDateTime.nullable(),
});
export type NotificationDelivery = z.infer<typeof notificationDeliverySchema>;

export const DELIVERY_SORT = ['id', 'createdAt', 'sentAt', 'status', 'event', 'attempts', 'channelName'] as const;
export const deliveryListQuery = listQuery({
  sort: DELIVERY_SORT,
  filter: { channelId: idFilter, alertId: idFilter, status: z.enum(DELIVERY_STATUSES).optional() },
});

/** Empty body of the Test button and of the secret rotation (the web client may send `{}` or nothing). */
export const emptyChannelActionBody = z.strictObject({}).nullish();

/** Webhook payload (docs/notifications.md "Payloads"): what a `webhook` channel's receiver gets, signed. */
export const notificationPayloadSchema = z.object({
  type: z.enum(DELIVERY_EVENTS),
  timestamp: isoDateTime,
  data: z.object({
    alert: z.object({
      id: z.number().int(),
      alertType: z.number().int(),
      customerId: z.number().int(),
      customerName: z.string(),
      offlineCount: z.number().int(),
      status: z.number().int(),
      createdAt: isoDateTime,
      resolvedAt: isoDateTime.nullable(),
      ackedAt: isoDateTime.nullable(),
    }),
    devices: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        deviceType: z.number().int(),
        deviceModel: z.string().nullable(),
        status: z.number().int(),
        lastOnline: isoDateTime.nullable(),
      }),
    ),
    url: z.string(),
  }),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

export const notificationChannelEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/notification-channels',
    tag: 'notifications',
    summary: 'Notification channels of the tenant (range, sort, filter q/type/enabled)',
    query: channelListQuery,
    response: listOf(notificationChannelSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/notification-channels',
    tag: 'notifications',
    summary: 'New channel; a webhook channel gets its own whsec_ secret; private targets answer 400',
    body: createChannelBody,
    response: dataOf(notificationChannelSchema),
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/notification-channels/:id',
    tag: 'notifications',
    summary: 'One channel (the webhook secret only for Admins and Project Managers)',
    params: idParams,
    response: dataOf(notificationChannelSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/notification-channels/:id',
    tag: 'notifications',
    summary: 'Edit a channel: any subset of its fields',
    params: idParams,
    body: updateChannelBody,
    response: dataOf(notificationChannelSchema),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/notification-channels/:id',
    tag: 'notifications',
    summary: 'Delete a channel; its pending deliveries are dropped, its delivery log is kept',
    params: idParams,
    response: okBody,
  }),
  test: endpoint({
    method: 'POST',
    path: '/v0/api/notification-channels/:id/test',
    tag: 'notifications',
    summary: 'Send a test message now (one attempt); answers the stored delivery with its result',
    params: idParams,
    body: emptyChannelActionBody,
    response: dataOf(notificationDeliverySchema),
  }),
  rotateSecret: endpoint({
    method: 'POST',
    path: '/v0/api/notification-channels/:id/secret',
    tag: 'notifications',
    summary: 'Rotate a webhook channel’s signing secret (other types: 400)',
    params: idParams,
    body: emptyChannelActionBody,
    response: dataOf(notificationChannelSchema),
  }),
};

export const notificationEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/notifications',
    tag: 'notifications',
    summary: 'Delivery log (range, sort, filter channelId/alertId/status)',
    query: deliveryListQuery,
    response: listOf(notificationDeliverySchema),
  }),
};
