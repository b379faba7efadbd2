import { Tooltip, type TableColumnsType } from 'antd';
import { DEVICE_STATUS, DEVICE_TYPES } from '@vigil/contracts';
import { Link } from 'react-router';
import { deviceDotStatus, StatusDot } from './StatusDot.tsx';
import { formatDateTime } from '../lib/dates.ts';

export interface DeviceRow {
  id: number;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: number;
  /** A maintenance window covers the device now: the third status (docs/web-pages.md "Maintenance windows"). */
  inMaintenance?: boolean;
  lastOnline: string | null;
}

export const deviceTypeLabel = (code: number) => DEVICE_TYPES[code] ?? 'Unknown';

type SortOrderOf = (field: string) => 'ascend' | 'descend' | null;

/**
 * The devices columns (docs/web-pages.md "Pages"): status dot (online green, offline faint, maintenance
 * blue with the reported status on hover; an Online/Offline filter, which like the sort reads the
 * reported status), Name (a link to the device page), Type, Model, Last Check-in. Sorting and the filter
 * come from the URL list state.
 */
export function deviceColumns<T extends DeviceRow>(sortOrderOf: SortOrderOf, statusFilter: unknown): TableColumnsType<T> {
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: sortOrderOf(key) });
  return [
    {
      title: 'Status',
      ...sortable('status'),
      // Wide enough for "Maintenance" on one line.
      width: 140,
      filters: [
        { text: 'Online', value: DEVICE_STATUS.online },
        { text: 'Offline', value: DEVICE_STATUS.offline },
      ],
      filterMultiple: false,
      filteredValue: statusFilter === DEVICE_STATUS.offline || statusFilter === DEVICE_STATUS.online ? [statusFilter] : null,
      render: (status: number, d: T) =>
        d.inMaintenance ? (
          <Tooltip title={`In a maintenance window; reports ${status === DEVICE_STATUS.online ? 'Online' : 'Offline'}`}>
            <span tabIndex={0} style={{ whiteSpace: 'nowrap' }}>
              <StatusDot status={deviceDotStatus(status, true)} />
            </span>
          </Tooltip>
        ) : (
          <StatusDot status={deviceDotStatus(status)} faint />
        ),
    },
    // The name opens the device page (docs/history.md).
    { title: 'Name', ...sortable('name'), render: (name: string, d: T) => <Link to={`/dashboards/devices/${d.id}`}>{name}</Link> },
    // Short words stay on one line; the name may wrap (it is what the row is about).
    { title: 'Type', ...sortable('deviceType'), render: (t: number) => <span style={{ whiteSpace: 'nowrap' }}>{deviceTypeLabel(t)}</span> },
    { title: 'Model', ...sortable('deviceModel'), render: (m: string) => <span style={{ whiteSpace: 'nowrap' }}>{m}</span> },
    {
      title: 'Last Check-in',
      ...sortable('lastOnline'),
      render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span>,
    },
  ];
}
