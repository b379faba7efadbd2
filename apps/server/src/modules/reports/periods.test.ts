import { describe, expect, it } from 'vitest';
import { formatDuration, formatLocalDate, periodText, reportPeriod } from './periods.ts';

const iso = (code: number, now: string, tz: string) => {
  const p = reportPeriod(code, new Date(now), tz);
  return [p.from.toISOString(), p.to.toISOString()];
};

describe('report periods (calendar-aligned in the tenant time zone)', () => {
  it('UTC: ISO week from Monday, month, quarter and year, each up to now', () => {
    const now = '2026-11-18T12:00:00.000Z'; // a Wednesday
    expect(iso(0, now, 'UTC')).toEqual(['2026-11-16T00:00:00.000Z', now]);
    expect(iso(1, now, 'UTC')).toEqual(['2026-11-01T00:00:00.000Z', now]);
    expect(iso(2, now, 'UTC')).toEqual(['2026-10-01T00:00:00.000Z', now]);
    expect(iso(3, now, 'UTC')).toEqual(['2026-01-01T00:00:00.000Z', now]);
  });

  it('a Sunday belongs to the week that started the Monday before; a Monday starts its own', () => {
    expect(iso(0, '2026-11-22T23:59:59.000Z', 'UTC')[0]).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(0, '2026-11-23T00:00:00.000Z', 'UTC')[0]).toBe('2026-11-23T00:00:00.000Z');
  });

  it('New York: local midnights, across the DST change of 1 Nov 2026', () => {
    // 03:00 UTC on Monday 16 Nov is still Sunday 15 Nov, 22:00 in New York (EST, UTC-5).
    const now = '2026-11-16T03:00:00.000Z';
    expect(iso(0, now, 'America/New_York')[0]).toBe('2026-11-09T05:00:00.000Z');
    // 1 Nov 00:00 is still daylight time (EDT, UTC-4): DST ends at 02:00 that day.
    expect(iso(1, now, 'America/New_York')[0]).toBe('2026-11-01T04:00:00.000Z');
    expect(iso(2, now, 'America/New_York')[0]).toBe('2026-10-01T04:00:00.000Z');
    expect(iso(3, now, 'America/New_York')[0]).toBe('2026-01-01T05:00:00.000Z');
  });

  it('zones ahead of UTC and half-hour offsets', () => {
    // 20:00 UTC on 31 Dec is already 1 Jan 01:30 in Kolkata (UTC+5:30): a new year and quarter.
    const now = '2026-12-31T20:00:00.000Z';
    expect(iso(3, now, 'Asia/Kolkata')[0]).toBe('2026-12-31T18:30:00.000Z');
    expect(iso(2, now, 'Asia/Kolkata')[0]).toBe('2026-12-31T18:30:00.000Z');
    expect(iso(3, now, 'UTC')[0]).toBe('2026-01-01T00:00:00.000Z');
  });

  it('an unknown zone falls back to UTC; labels follow docs/product.md', () => {
    const p = reportPeriod(1, new Date('2026-11-18T12:00:00Z'), 'Not/AZone');
    expect(p.timezone).toBe('UTC');
    expect(p.label).toBe('This Month');
    expect(reportPeriod(0, new Date(), 'UTC').label).toBe('This Week');
    expect(reportPeriod(2, new Date(), 'UTC').label).toBe('This Quarter');
    expect(reportPeriod(3, new Date(), 'UTC').label).toBe('This Year');
    expect(formatLocalDate(new Date('2026-11-16T03:00:00Z'), 'America/New_York')).toBe('2026-11-15');
  });
});

describe('one period and one duration format (the web page writes the same: features/reports/format.ts)', () => {
  it('names the period by its local dates in the tenant zone, the zone named', () => {
    // This month in Chicago, read at 21:10 local on the 25th (03:10 UTC on the 26th).
    const period = { from: '2026-11-01T05:00:00.000Z', to: '2026-11-26T03:10:00.000Z', timezone: 'America/Chicago' };
    expect(periodText(period)).toBe('2026-11-01 to 2026-11-25 (America/Chicago)');
    expect(periodText({ ...period, timezone: 'UTC', from: '2026-11-01T00:00:00.000Z' })).toBe('2026-11-01 to 2026-11-26 (UTC)');
  });
  it('writes offline time as days, hours and minutes', () => {
    expect(formatDuration(45 * 60)).toBe('45m');
    expect(formatDuration(3 * 3600 + 12 * 60)).toBe('3h 12m');
    expect(formatDuration(5 * 86400 + 20 * 3600 + 54 * 60)).toBe('5d 20h 54m');
  });
});
