import type { NotificationInstance } from 'antd/es/notification/interface';

export type Notifier = Pick<NotificationInstance, 'error' | 'success' | 'warning' | 'info'>;
type Args = Parameters<Notifier['error']>[0];

/**
 * Notifications from outside React (the session base query) and from pages. The app registers
 * the themed instance (`NotificationHost`, loaded right after the first render, so antd's
 * notification code, about 8 KB gzip, is not in the first JavaScript of every route). Before
 * that, or where no host is mounted (component tests), antd's static API is loaded on first use.
 */
let instance: Notifier | undefined;

export function setNotifier(next: Notifier | undefined): void {
  instance = next;
}

function show(kind: 'error' | 'success' | 'warning', args: Args): void {
  if (instance) instance[kind](args);
  else void import('antd/es/notification').then((m) => (instance ?? m.default)[kind](args));
}

export const notify = {
  error: (text?: string) => show('error', { title: 'Error', description: text || 'An unexpected error occurred', placement: 'topRight' }),
  success: (text?: string) => show('success', { title: text || 'success', placement: 'topRight' }),
  warning: (text?: string) => show('warning', { title: text || 'This is a warning message', placement: 'topRight' }),
};
