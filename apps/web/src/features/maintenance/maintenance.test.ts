import { describe, expect, it } from 'vitest';
import { MAINT_MSG, MAINTENANCE_RECURRENCES, type MaintenanceWindow } from '@vigil/contracts';
import {
  changedBodyOf,
  CHOOSE_DEVICES,
  createBodyOf,
  devicesProblem,
  endProblem,
  formOfWindow,
  newWindowForm,
  startProblem,
  updateBodyOf,
  type MaintenanceFormValues,
} from './form.ts';
import { CARD_TEXT, deviceNames, devicesText, occurrenceText, RECURRENCE_LABEL, stateOf } from './labels.ts';
import { nextBoundary } from './useBoundaryRefresh.ts';
import { formatInZone, fromZonedInput, offsetAt, toZonedInput } from './zone.ts';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';

describe('tenant-zone wall clock <-> instants', () => {
  it('reads a datetime-local value in the named zone, whatever the browser zone', () => {
    expect(fromZonedInput('2026-11-27T09:30', NY)).toBe('2026-11-27T14:30:00.000Z');
    expect(fromZonedInput('2026-07-01T09:30', NY)).toBe('2026-07-01T13:30:00.000Z');
    expect(fromZonedInput('2026-11-27T09:30', BERLIN)).toBe('2026-11-27T08:30:00.000Z');
    expect(fromZonedInput('2026-11-27T09:30', 'Asia/Kolkata')).toBe('2026-11-27T04:00:00.000Z');
    expect(fromZonedInput('2026-11-27T09:30', 'UTC')).toBe('2026-11-27T09:30:00.000Z');
  });

  it('writes an instant as the zone wall clock, the inverse of reading it', () => {
    expect(toZonedInput('2026-11-27T14:30:00.000Z', NY)).toBe('2026-11-27T09:30');
    expect(toZonedInput('2026-11-27T23:30:00.000Z', BERLIN)).toBe('2026-11-28T00:30');
    expect(toZonedInput('2026-11-27T04:00:00Z', 'Asia/Kolkata')).toBe('2026-11-27T09:30');
    for (const value of ['2026-01-01T00:00', '2026-03-29T03:15', '2026-10-25T12:00', '2026-12-31T23:59'])
      expect(toZonedInput(fromZonedInput(value, BERLIN)!, BERLIN)).toBe(value);
    expect(toZonedInput('not a date', NY)).toBe('');
  });

  it('handles the daylight-saving changes of New York', () => {
    // Spring forward on 2026-03-08: 02:00 EST -> 03:00 EDT; 02:30 does not exist and reads as 03:30 EDT.
    expect(fromZonedInput('2026-03-08T01:30', NY)).toBe('2026-03-08T06:30:00.000Z');
    expect(fromZonedInput('2026-03-08T02:30', NY)).toBe('2026-03-08T07:30:00.000Z');
    expect(fromZonedInput('2026-03-08T03:30', NY)).toBe('2026-03-08T07:30:00.000Z');
    expect(fromZonedInput('2026-03-08T12:00', NY)).toBe('2026-03-08T16:00:00.000Z');
    // Fall back on 2026-11-01: 01:30 happens twice; the first (EDT) is taken.
    expect(fromZonedInput('2026-11-01T01:30', NY)).toBe('2026-11-01T05:30:00.000Z');
    expect(fromZonedInput('2026-11-01T03:00', NY)).toBe('2026-11-01T08:00:00.000Z');
    expect(offsetAt(Date.parse('2026-11-01T05:30:00Z'), NY)).toBe(-4 * 3_600_000);
    expect(offsetAt(Date.parse('2026-11-01T06:30:00Z'), NY)).toBe(-5 * 3_600_000);
  });

  it('refuses what is not a datetime-local time', () => {
    for (const bad of ['', '2026-11-27', '2026-11-27 09:30', '2026-02-30T10:00', '2026-11-27T24:00', '2026-11-27T09:60'])
      expect(fromZonedInput(bad, NY)).toBeUndefined();
  });

  it("formats in the zone with the app's date-time format", () => {
    expect(formatInZone('2026-11-27T14:05:00Z', NY)).toBe('11/27/26 9:05 AM');
    expect(formatInZone('2026-11-27T12:00:00Z', 'UTC')).toBe('11/27/26 12:00 PM');
    expect(formatInZone('2026-11-27T23:00:00Z', BERLIN)).toBe('11/28/26 12:00 AM');
    expect(formatInZone(null, NY)).toBe('-');
  });
});

describe('maintenance dialog values', () => {
  const now = Date.parse('2026-11-27T14:10:00Z');
  const form = (v: Partial<MaintenanceFormValues>): MaintenanceFormValues => ({
    scope: 'portal',
    deviceIds: [],
    startsAt: '2026-11-27T10:00',
    endsAt: '2026-11-27T12:00',
    recurrence: 'none',
    reason: '',
    ...v,
  });

  it('starts a new window at the next whole hour for two hours, prefilled with a device', () => {
    expect(newWindowForm(now, NY)).toEqual(form({ startsAt: '2026-11-27T10:00', endsAt: '2026-11-27T12:00' }));
    expect(newWindowForm(now, NY, 7)).toMatchObject({ scope: 'devices', deviceIds: [7] });
  });

  it("checks with the server's rules and texts", () => {
    expect(startProblem(form({ startsAt: '' }), NY)).toBe(MAINT_MSG.instant);
    expect(endProblem(form({}), NY, now)).toBeUndefined();
    expect(endProblem(form({ endsAt: '2026-11-27T09:00' }), NY, now)).toBe(MAINT_MSG.order);
    expect(endProblem(form({ endsAt: '2026-11-27T10:00' }), NY, now)).toBe(MAINT_MSG.order);
    expect(endProblem(form({ endsAt: '2026-12-05T10:00' }), NY, now)).toBe(MAINT_MSG.tooLong);
    expect(endProblem(form({ endsAt: '2026-11-28T11:00', recurrence: 'daily' }), NY, now)).toBe(MAINT_MSG.dailyTooLong);
    expect(endProblem(form({ endsAt: '2026-11-28T11:00', recurrence: 'weekly' }), NY, now)).toBeUndefined();
    // A one-off that is already over is refused; a recurring one repeats, so it is not.
    const past = { startsAt: '2026-11-27T06:00', endsAt: '2026-11-27T08:00' };
    expect(endProblem(form(past), NY, now)).toBe(MAINT_MSG.ended);
    expect(endProblem(form({ ...past, recurrence: 'daily' }), NY, now)).toBeUndefined();
    expect(devicesProblem(form({ scope: 'devices', deviceIds: [] }))).toBe(CHOOSE_DEVICES);
    expect(devicesProblem(form({ scope: 'devices', deviceIds: [3] }))).toBeUndefined();
  });

  it('sends UTC instants, no device for the whole portal, and the reason trimmed', () => {
    expect(createBodyOf(5, form({ scope: 'portal', deviceIds: [3], reason: '  Firmware  ' }), NY)).toEqual({
      customerId: 5,
      deviceIds: [],
      startsAt: '2026-11-27T15:00:00.000Z',
      endsAt: '2026-11-27T17:00:00.000Z',
      recurrence: 'none',
      reason: 'Firmware',
    });
    expect(updateBodyOf(form({ scope: 'devices', deviceIds: [3, 4], recurrence: 'weekly' }), BERLIN)).toMatchObject({
      deviceIds: [3, 4],
      startsAt: '2026-11-27T09:00:00.000Z',
      recurrence: 'weekly',
    });
  });

  it('edits a window in the zone it is shown in, sending only what changed', () => {
    const w = window_({ startsAt: '2026-11-27T15:00:00Z', endsAt: '2026-11-27T17:00:00Z', deviceIds: [9] });
    const before = formOfWindow(w, NY);
    expect(before).toEqual(form({ scope: 'devices', deviceIds: [9], reason: 'Firmware' }));
    // A start at seconds past the minute stays as it is when its field is left alone.
    const odd = formOfWindow(window_({ startsAt: '2026-11-27T15:00:42.5Z' }), NY);
    expect(changedBodyOf(odd, { ...odd, reason: 'Firmware, again ' }, NY)).toEqual({ reason: 'Firmware, again' });
    expect(changedBodyOf(before, { ...before, endsAt: '2026-11-27T13:00', scope: 'portal' }, NY)).toEqual({
      endsAt: '2026-11-27T18:00:00.000Z',
      deviceIds: [],
    });
    expect(changedBodyOf(before, before, NY)).toEqual({});
  });
});

function window_(over: Partial<MaintenanceWindow> = {}): MaintenanceWindow {
  return {
    id: 1,
    customerId: 5,
    customerName: 'Harbor View Hotel',
    deviceIds: [],
    startsAt: '2026-11-27T15:00:00Z',
    endsAt: '2026-11-27T17:00:00Z',
    recurrence: 'none',
    reason: 'Firmware',
    createdByName: 'Dana Whitfield',
    createdAt: '2026-11-27T14:00:00Z',
    inForce: false,
    nextStartsAt: '2026-11-27T15:00:00Z',
    nextEndsAt: '2026-11-27T17:00:00Z',
    ...over,
  };
}

describe('maintenance list words', () => {
  it("the card's copies of the contract's texts are the contract's", () => {
    expect(CARD_TEXT).toEqual({ deleteConfirm: MAINT_MSG.deleteConfirm, deleted: MAINT_MSG.deleted });
    expect(Object.keys(RECURRENCE_LABEL)).toEqual([...MAINTENANCE_RECURRENCES]);
  });

  it('names the devices, the state and the occurrence', () => {
    expect(devicesText([])).toBe('All devices');
    expect(devicesText([4])).toBe('1 device');
    expect(devicesText([4, 2])).toBe('2 devices');
    expect(deviceNames([4, 2], new Map([[4, 'Gate Camera']]))).toEqual(['Gate Camera', '#2']);
    expect(stateOf(window_({ inForce: true }))).toBe('In progress');
    expect(stateOf(window_())).toBe('Scheduled');
    expect(occurrenceText(window_({ inForce: true }), NY)).toBe('Until 11/27/26 12:00 PM');
    expect(occurrenceText(window_(), NY)).toBeUndefined();
    expect(occurrenceText(window_({ recurrence: 'daily', nextStartsAt: '2026-11-28T15:00:00Z' }), NY)).toBe('Next: 11/28/26 10:00 AM');
  });

  it('finds the next start or end of the listed windows, for the refresh at that moment', () => {
    const now = Date.parse('2026-11-27T16:00:00Z');
    const ending = window_({ inForce: true, nextEndsAt: '2026-11-27T17:00:00Z' });
    const starting = window_({ id: 2, nextStartsAt: '2026-11-27T16:30:00Z', nextEndsAt: '2026-11-27T18:00:00Z' });
    expect(nextBoundary([ending, starting], now)).toBe(Date.parse('2026-11-27T16:30:00Z'));
    expect(nextBoundary([ending], now)).toBe(Date.parse('2026-11-27T17:00:00Z'));
    expect(nextBoundary([window_({ nextStartsAt: null, nextEndsAt: null })], now)).toBeUndefined();
    expect(nextBoundary([], now)).toBeUndefined();
  });
});
