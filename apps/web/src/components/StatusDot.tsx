import { Badge, Tooltip } from 'antd';
import { DEVICE_STATUS } from '@vigil/contracts';
import { STATUS_COLORS } from '../lib/theme.ts';

export type DotStatus = 'online' | 'offline' | 'maintenance' | 'warning' | 'unknown';

const COLOR: Record<DotStatus, string> = {
  online: STATUS_COLORS.online,
  offline: STATUS_COLORS.offline,
  maintenance: STATUS_COLORS.maintenance,
  warning: STATUS_COLORS.warning,
  unknown: STATUS_COLORS.unknown,
};
const WORD: Record<DotStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  maintenance: 'Maintenance',
  warning: 'Warning',
  unknown: 'Unknown',
};

/**
 * Device status code (1 online, 0 offline) to a dot status. A device a maintenance window covers shows
 * the third status whatever it reports (docs/web-pages.md "Maintenance windows"): it raises no alert.
 */
export const deviceDotStatus = (status: number | null | undefined, inMaintenance = false): DotStatus =>
  inMaintenance ? 'maintenance' : status === DEVICE_STATUS.online ? 'online' : status === DEVICE_STATUS.offline ? 'offline' : 'unknown';

/**
 * A status dot that never relies on colour alone: the word beside it (default) or
 * in a tooltip (`compact`). `faint` is the product's faint red for offline in dense tables.
 */
export function StatusDot({
  status,
  compact = false,
  faint = false,
  label,
}: {
  status: DotStatus;
  compact?: boolean;
  faint?: boolean;
  label?: string;
}) {
  const color = status === 'offline' && faint ? STATUS_COLORS.offlineFaint : COLOR[status];
  const word = label ?? WORD[status];
  if (compact)
    return (
      <Tooltip title={word}>
        <span role="img" aria-label={word}>
          <Badge color={color} />
        </span>
      </Tooltip>
    );
  return <Badge color={color} text={word} />;
}
