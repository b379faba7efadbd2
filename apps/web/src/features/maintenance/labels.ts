import type { MaintenanceRecurrence, MaintenanceWindow } from '@vigil/contracts';
import { formatInZone } from './zone.ts';

/**
 * The contract's texts the card shows (MAINT_MSG), copied so that reading the list does not load the
 * contract's schemas (zod) on the portal and device pages; maintenance.test.ts checks they are the same.
 * The dialog, loaded when it first opens, uses the contract itself.
 */
export const CARD_TEXT = {
  deleteConfirm: 'Are you sure you want to delete this maintenance window?',
  deleted: 'Maintenance window deleted.',
} as const;

export const RECURRENCE_LABEL: Record<MaintenanceRecurrence, string> = { none: 'None', daily: 'Daily', weekly: 'Weekly' };

/** Words of the maintenance list (docs/web-pages.md "Maintenance windows"). */
export const STATE_LABEL = { inForce: 'In progress', scheduled: 'Scheduled' } as const;

export const stateOf = (w: Pick<MaintenanceWindow, 'inForce'>): string => (w.inForce ? STATE_LABEL.inForce : STATE_LABEL.scheduled);

/** "All devices" for a whole-portal window, else "1 device" / "N devices". */
export const devicesText = (ids: readonly number[]): string =>
  ids.length === 0 ? 'All devices' : ids.length === 1 ? '1 device' : `${ids.length} devices`;

/** The names behind "N devices", in the window's order; an id the page does not know shows as #id. */
export const deviceNames = (ids: readonly number[], names: ReadonlyMap<number, string>): string[] =>
  ids.map((id) => names.get(id) ?? `#${id}`);

/**
 * What the State column says under the badge: for a window in force, when its occurrence ends; for a
 * recurring one not in force, its next occurrence. A one-off scheduled window's times are its own columns.
 */
export function occurrenceText(w: MaintenanceWindow, timeZone: string): string | undefined {
  if (w.inForce && w.nextEndsAt) return `Until ${formatInZone(w.nextEndsAt, timeZone)}`;
  if (w.recurrence !== 'none' && w.nextStartsAt) return `Next: ${formatInZone(w.nextStartsAt, timeZone)}`;
  return undefined;
}
