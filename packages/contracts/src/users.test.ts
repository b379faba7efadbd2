import { describe, expect, it } from 'vitest';
import { joinName, splitName } from './users.ts';
import { isTimeZone } from './tenants.ts';

describe('user name rule (docs/product.md "Records")', () => {
  it('reads the first word as the first name and the rest as the last name', () => {
    expect(splitName('Mary Ann Smith')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' });
    expect(splitName('  Cher  ')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(splitName('Jean   Luc\tPicard')).toEqual({ firstName: 'Jean', lastName: 'Luc Picard' });
    expect(splitName('')).toEqual({ firstName: '', lastName: '' });
  });

  it('joins first and last with one space, and a split of the join gives the parts back', () => {
    expect(joinName('Mary', 'Ann Smith')).toBe('Mary Ann Smith');
    expect(joinName('Cher', '')).toBe('Cher');
    expect(splitName(joinName('Jean', 'Luc Picard'))).toEqual({ firstName: 'Jean', lastName: 'Luc Picard' });
  });
});

describe('time zone check', () => {
  it('accepts IANA names and refuses anything else', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['Mars/Olympus', '', 'Europe/Berlin; drop table']) expect(isTimeZone(zone)).toBe(false);
  });
});
