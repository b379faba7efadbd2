import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, isoDateTime, listOf } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';

/**
 * Live events (docs/web-pages.md "Pages", docs/product.md "Records", docs/decisions.md 28): one row per portal
 * that has offline devices. Pushed by Server-Sent Events, listed by GET /live-events.
 */
export const liveEvent = z.object({
  customerId: z.number().int(),
  customerName: z.string(),
  tenantName: z.string().optional(),
  offlineCount: z.number().int(),
  /** Earliest status_since of the portal's currently offline devices. */
  offlineSince: isoDateTime,
});
export type LiveEvent = z.infer<typeof liveEvent>;

export const LIVE_EVENTS_SORT = ['customerName', 'offlineCount', 'offlineSince'] as const;
export const liveEventsQuery = listQuery({
  sort: LIVE_EVENTS_SORT,
  filter: { customerId: idFilter, q: qFilter, tenantName: qFilter },
});

export const streamTicket = z.object({ ticket: z.string(), expiresAt: isoDateTime });

export const liveEventsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/live-events',
    summary: 'Portals with offline devices now',
    tag: 'live-events',
    query: liveEventsQuery,
    response: listOf(liveEvent),
  }),
  ticket: endpoint({
    method: 'POST',
    path: '/v0/api/live-events/ticket',
    summary: 'A single-use ticket (60 s) that opens the live-events stream',
    tag: 'live-events',
    body: z.strictObject({}).optional(),
    response: dataOf(streamTicket),
  }),
};

// Path of the Server-Sent Events stream: defined with the schema-free routes (the browser's shell needs it).
export { LIVE_EVENTS_STREAM_PATH } from './routes.ts';

/**
 * Events on the stream (`event:` name -> JSON `data:`):
 * - `snapshot`: on connect, `{ liveEvents: LiveEvent[], summary: {offlineCount, onlineCount} }`
 *   (summary per tenant for tenant users; all tenants for the superAdmin).
 * - `devices`: `{ customerId, offlineCount, onlineCount, offline: number[], online: number[], at }`
 *   on every device status change of a portal (device ids that changed).
 * - `live-events`: `{ customerId, row: LiveEvent | null }` (null: the portal has no offline device left).
 * - `alert`: `{ alertId, customerId, customerName, alertType, offlineCount }` when an alert opens.
 */
export const streamDevicesEvent = z.object({
  customerId: z.number().int(),
  offlineCount: z.number().int(),
  onlineCount: z.number().int(),
  offline: z.array(z.number().int()),
  online: z.array(z.number().int()),
  at: isoDateTime,
});
export const streamLiveEventsEvent = z.object({ customerId: z.number().int(), row: liveEvent.nullable() });
export const streamAlertEvent = z.object({
  alertId: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  alertType: z.number().int(),
  offlineCount: z.number().int(),
});
export const streamSnapshotEvent = z.object({
  liveEvents: z.array(liveEvent),
  summary: z.object({ offlineCount: z.number().int(), onlineCount: z.number().int() }),
});
