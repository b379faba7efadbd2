import { ALERT_STATUS, ALERT_TYPES } from '@vigil/contracts';
import type { DotStatus } from '../../components/StatusDot.tsx';
import { formatDateTime } from '../../lib/dates.ts';

/** Alert status dot (docs/product.md "Codes and states"): 0 green (resolved), 1 warning (open), 2 error (open > 24 h or critical). */
export function alertDot(status: number): { dot: DotStatus; word: string } {
  if (status === ALERT_STATUS.ok) return { dot: 'online', word: 'Resolved' };
  if (status === ALERT_STATUS.warning) return { dot: 'warning', word: 'Open' };
  if (status === ALERT_STATUS.error) return { dot: 'offline', word: 'Critical' };
  return { dot: 'unknown', word: 'Unknown' };
}

export const alertTypeLabel = (code: number) => ALERT_TYPES[code] ?? 'Unknown';

/** Who acknowledged the alert and when ('Dana Reyes, 11/27/26 9:05 AM'), or '-' (docs/alerts.md). */
export function acknowledgedText(a: { ackedAt: string | null; ackedByName: string | null }): string {
  if (!a.ackedAt) return '-';
  return a.ackedByName ? `${a.ackedByName}, ${formatDateTime(a.ackedAt)}` : formatDateTime(a.ackedAt);
}
