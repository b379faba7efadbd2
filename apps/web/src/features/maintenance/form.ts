import {
  MAINT_MSG,
  MAINTENANCE_LIMITS,
  maintenanceSpanProblem,
  type CreateMaintenanceInput,
  type MaintenanceRecurrence,
  type MaintenanceWindow,
  type UpdateMaintenanceInput,
} from '@vigil/contracts';
import { fromZonedInput, toZonedInput } from './zone.ts';

/**
 * The maintenance dialog's values and their checks (docs/web-pages.md "Maintenance windows"): the same
 * rules and texts as the server (`maintenanceSpanProblem`, MAINT_MSG of the contract), on times entered
 * as the tenant zone's wall clock.
 */
export interface MaintenanceFormValues {
  /** The whole portal (every device, also those that appear later) or the chosen devices. */
  scope: 'portal' | 'devices';
  deviceIds: number[];
  /** datetime-local values, the tenant zone's wall clock. */
  startsAt: string;
  endsAt: string;
  recurrence: MaintenanceRecurrence;
  reason: string;
}

/** Shown when "Chosen devices" is picked with none: the server would read an empty list as the whole portal. */
export const CHOOSE_DEVICES = 'Choose at least one device, or the whole portal.';

/** A new window: from the next whole hour for two hours, one-off; prefilled with `deviceId` when given. */
export function newWindowForm(now: number, timeZone: string, deviceId?: number): MaintenanceFormValues {
  const start = Math.ceil(now / 3_600_000) * 3_600_000;
  return {
    scope: deviceId ? 'devices' : 'portal',
    deviceIds: deviceId ? [deviceId] : [],
    startsAt: toZonedInput(start, timeZone),
    endsAt: toZonedInput(start + 2 * 3_600_000, timeZone),
    recurrence: 'none',
    reason: '',
  };
}

export function formOfWindow(w: MaintenanceWindow, timeZone: string): MaintenanceFormValues {
  return {
    scope: w.deviceIds.length ? 'devices' : 'portal',
    deviceIds: w.deviceIds,
    startsAt: toZonedInput(w.startsAt, timeZone),
    endsAt: toZonedInput(w.endsAt, timeZone),
    recurrence: w.recurrence,
    reason: w.reason,
  };
}

/** The problem of the start field, if any. */
export function startProblem(v: Pick<MaintenanceFormValues, 'startsAt'>, timeZone: string): string | undefined {
  return fromZonedInput(v.startsAt ?? '', timeZone) ? undefined : MAINT_MSG.instant;
}

/**
 * The problem of the end field, if any: a time, after the start, within the length rules, and (one-off)
 * not already over: the server refuses such a window (history is never rewritten).
 */
export function endProblem(
  v: Pick<MaintenanceFormValues, 'startsAt' | 'endsAt' | 'recurrence'>,
  timeZone: string,
  now: number,
): string | undefined {
  const start = fromZonedInput(v.startsAt ?? '', timeZone);
  const end = fromZonedInput(v.endsAt ?? '', timeZone);
  if (!end) return MAINT_MSG.instant;
  if (!start) return undefined; // the start field says it
  const span = maintenanceSpanProblem(start, end, v.recurrence ?? 'none');
  if (span) return span;
  if ((v.recurrence ?? 'none') === 'none' && Date.parse(end) <= now) return MAINT_MSG.ended;
  return undefined;
}

export function reasonProblem(reason: string | undefined): string | undefined {
  return (reason ?? '').trim().length > MAINTENANCE_LIMITS.reasonMax ? MAINT_MSG.reason : undefined;
}

export function devicesProblem(v: Pick<MaintenanceFormValues, 'scope' | 'deviceIds'>): string | undefined {
  if (v.scope !== 'devices') return undefined;
  if (!v.deviceIds?.length) return CHOOSE_DEVICES;
  return v.deviceIds.length > MAINTENANCE_LIMITS.deviceIdsMax ? MAINT_MSG.deviceIds : undefined;
}

/** The create body of valid form values (times as UTC instants). */
export function createBodyOf(customerId: number, v: MaintenanceFormValues, timeZone: string): CreateMaintenanceInput {
  return { customerId, ...updateBodyOf(v, timeZone) };
}

/** The edit body: every field but the portal (the server checks the merged result). */
export function updateBodyOf(v: MaintenanceFormValues, timeZone: string): Required<UpdateMaintenanceInput> {
  return {
    deviceIds: v.scope === 'devices' ? [...v.deviceIds] : [],
    startsAt: fromZonedInput(v.startsAt, timeZone) ?? v.startsAt,
    endsAt: fromZonedInput(v.endsAt, timeZone) ?? v.endsAt,
    recurrence: v.recurrence,
    reason: v.reason.trim(),
  };
}

/**
 * The edit body: only what the user changed. A time left alone is not sent back as the minute the field
 * shows (a window made through the API may start at seconds past it), and the server re-checks the
 * merged window anyway.
 */
export function changedBodyOf(before: MaintenanceFormValues, v: MaintenanceFormValues, timeZone: string): UpdateMaintenanceInput {
  const all = updateBodyOf(v, timeZone);
  const was = updateBodyOf(before, timeZone);
  const body: UpdateMaintenanceInput = {};
  if (v.startsAt !== before.startsAt) body.startsAt = all.startsAt;
  if (v.endsAt !== before.endsAt) body.endsAt = all.endsAt;
  if (all.recurrence !== was.recurrence) body.recurrence = all.recurrence;
  if (all.reason !== was.reason) body.reason = all.reason;
  if (all.deviceIds.join() !== was.deviceIds.join()) body.deviceIds = all.deviceIds;
  return body;
}

/** Server answers that belong to one field: shown under it as well as in the error toast. */
export const FIELD_OF_MESSAGE: Record<string, keyof MaintenanceFormValues> = {
  [MAINT_MSG.instant]: 'startsAt',
  [MAINT_MSG.order]: 'endsAt',
  [MAINT_MSG.tooLong]: 'endsAt',
  [MAINT_MSG.dailyTooLong]: 'endsAt',
  [MAINT_MSG.ended]: 'endsAt',
  [MAINT_MSG.recurrence]: 'recurrence',
  [MAINT_MSG.reason]: 'reason',
  [MAINT_MSG.deviceIds]: 'deviceIds',
  [MAINT_MSG.unknownDevice]: 'deviceIds',
};
