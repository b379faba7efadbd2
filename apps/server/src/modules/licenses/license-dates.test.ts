import { describe, expect, it } from 'vitest';
import { dateIn, daysBetween, licenseEndDate } from './license-dates.ts';

describe('license dates', () => {
  it.each([
    ['2025-01-15', 1, '2026-01-15'],
    ['2025-12-31', 3, '2028-12-31'],
    ['2024-02-29', 1, '2025-02-28'],
    ['2024-02-29', 3, '2027-02-28'],
    ['2024-02-29', 5, '2029-02-28'],
    ['2024-02-29', 10, '2034-02-28'],
    ['2023-02-28', 1, '2024-02-28'],
    ['2023-03-01', 1, '2024-03-01'],
    ['2027-02-28', 5, '2032-02-28'],
    ['2020-02-29', 10, '2030-02-28'],
  ])('%s + %i years ends on %s', (start, terms, end) => {
    expect(licenseEndDate(start, terms)).toBe(end);
  });

  it("reads today's date in a time zone", () => {
    const now = new Date('2026-11-22T06:00:00.000Z');
    expect(dateIn(now, 'UTC')).toBe('2026-11-22');
    expect(dateIn(now, 'America/Los_Angeles')).toBe('2026-11-21');
    expect(dateIn(new Date('2026-11-22T23:30:00.000Z'), 'Asia/Tokyo')).toBe('2026-11-23');
  });

  it('counts whole days across leap days and DST changes', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2026-11-22', '2026-11-20')).toBe(-2);
  });
});
