import { describe, expect, it } from 'vitest';
import { clip, formatLength, periodAt, scoreOf, type Period } from './history.ts';

const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (h: number) => new Date(T0 + h * 3_600_000).toISOString();
const periods: Period[] = [
  { status: 1, from: at(0), to: at(6) },
  { status: 0, from: at(6), to: at(8) },
  { status: 2, from: at(8), to: at(9) },
  { status: 1, from: at(9), to: at(10) },
];

describe('device page helpers', () => {
  it('clips periods to a range and drops the ones outside', () => {
    expect(clip(periods, T0 + 7 * 3_600_000, T0 + 8.5 * 3_600_000)).toEqual([
      { status: 0, from: at(7), to: at(8) },
      { status: 2, from: at(8), to: at(8.5) },
    ]);
  });

  it('scores online over observed time, maintenance excluded, one decimal half up; -1 for nothing observed', () => {
    // 7 h online of 9 h observed = 77.777 -> 77.8
    expect(scoreOf(periods)).toBe(77.8);
    expect(scoreOf([{ status: 2, from: at(0), to: at(1) }])).toBe(-1);
    expect(scoreOf([])).toBe(-1);
    // 1 of 8 = 12.5 stays 12.5; 1 of 16 = 6.25 -> 6.3 (half up)
    expect(
      scoreOf([
        { status: 1, from: at(0), to: at(1) },
        { status: 0, from: at(1), to: at(16) },
      ]),
    ).toBe(6.3);
  });

  it('formats lengths with their two largest units and finds the period at an instant', () => {
    expect(formatLength(6 * 3_600_000)).toBe('6 h');
    expect(formatLength(26 * 3_600_000 + 60_000)).toBe('1 d 2 h');
    expect(formatLength(3_600_000 + 12 * 60_000)).toBe('1 h 12 min');
    expect(formatLength(35_000)).toBe('35 s');
    expect(periodAt(periods, T0 + 8.5 * 3_600_000)?.status).toBe(2);
    expect(periodAt(periods, T0 + 11 * 3_600_000)).toBeUndefined();
  });
});
