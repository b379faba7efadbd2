import { ALERT_STATUS, ALERT_TYPES } from '@vigil/contracts';
import type { DotStatus } from '../../components/StatusDot.tsx';

/** Alert status dot (docs/product.md "Codes and states"): 0 green (resolved), 1 warning (open), 2 error (open > 24 h or critical). */
export function alertDot(status: number): { dot: DotStatus; word: string } {
  if (status === ALERT_STATUS.ok) return { dot: 'online', word: 'Resolved' };
  if (status === ALERT_STATUS.warning) return { dot: 'warning', word: 'Open' };
  if (status === ALERT_STATUS.error) return { dot: 'offline', word: 'Critical' };
  return { dot: 'unknown', word: 'Unknown' };
}

export const alertTypeLabel = (code: number) => ALERT_TYPES[code] ?? 'Unknown';
