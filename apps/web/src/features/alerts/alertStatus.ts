import { ALERT_TYPES } from '@vigil/contracts';
import type { DotStatus } from '../../components/StatusDot.tsx';

/** Alert status dot (spec §4): 0 green (resolved), 1 warning (open), 2 error (open > 24 h or critical). */
export function alertDot(status: number): { dot: DotStatus; word: string } {
  if (status === 0) return { dot: 'online', word: 'Resolved' };
  if (status === 1) return { dot: 'warning', word: 'Open' };
  if (status === 2) return { dot: 'offline', word: 'Critical' };
  return { dot: 'unknown', word: 'Unknown' };
}

export const alertTypeLabel = (code: number) => ALERT_TYPES[code] ?? 'Unknown';
