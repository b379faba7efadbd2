import { notification } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * Notifications from outside React (the session base query). The app registers
 * the themed instance (`NotifierBridge` in App.tsx); until then the static
 * API is used.
 */
let instance: Pick<NotificationInstance, 'error' | 'success' | 'warning' | 'info'> = notification;

export function setNotifier(next: typeof instance): void {
  instance = next;
}

export const notify = {
  error: (text?: string) => instance.error({ title: 'Error', description: text || 'An unexpected error occurred', placement: 'topRight' }),
  success: (text?: string) => instance.success({ title: text || 'success', placement: 'topRight' }),
  warning: (text?: string) => instance.warning({ title: text || 'This is a warning message', placement: 'topRight' }),
};
