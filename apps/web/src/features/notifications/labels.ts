import type { DeliveryEvent, DeliveryStatus, NotificationChannel, NotificationChannelType } from '@vigil/contracts';
import type { DotStatus } from '../../components/StatusDot.tsx';

/** Words shown for the contract's codes (docs/web-pages.md "Notifications"). */
export const CHANNEL_TYPE_LABEL: Record<NotificationChannelType, string> = {
  email: 'Email',
  webhook: 'Webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

export const EVENT_LABEL: Record<DeliveryEvent, string> = {
  'alert.opened': 'Alert opened',
  'alert.resolved': 'Alert resolved',
  'alert.repeated': 'Alert repeated',
  test: 'Test',
};

export const DELIVERY_STATUS_LABEL: Record<DeliveryStatus, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed' };
export const DELIVERY_STATUS_DOT: Record<DeliveryStatus, DotStatus> = { pending: 'warning', sent: 'online', failed: 'offline' };

/** A channel's target as one line: the addresses of an email channel, else its URL. */
export const targetText = (target: NotificationChannel['target']): string => (Array.isArray(target) ? target.join(', ') : target);

/** Minutes as words: 0 -> the zero word, 90 -> '1 h 30 min'. */
export function minutesText(minutes: number, zero: string): string {
  if (minutes <= 0) return zero;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ');
}

/** Toasts of the channel actions (docs/web-pages.md "Notifications"); the test and rotation texts are the contract's. */
export const CHANNEL_TOAST = {
  created: 'Channel added.',
  updated: 'Channel updated.',
  deleted: 'Channel deleted.',
  enabled: 'Channel enabled.',
  disabled: 'Channel disabled.',
} as const;

export const DELETE_CONFIRM = 'Delete this channel? Its delivery log is kept.';
