import { describe, expect, it } from 'vitest';
import { parseFilter, parsePage, parsePageSize, parseSort, readListState, toListQuery, writeListState } from './listState.ts';

describe('list state in the URL', () => {
  it('page is at least 1, default 1', () => {
    expect(parsePage(null)).toBe(1);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('-4')).toBe(1);
    expect(parsePage('abc')).toBe(1);
    expect(parsePage('3')).toBe(3);
  });

  it('pageSize defaults to 10 and is clamped to 1..1000', () => {
    expect(parsePageSize(null)).toBe(10);
    expect(parsePageSize('0')).toBe(1);
    expect(parsePageSize('5000')).toBe(1000);
    expect(parsePageSize('25')).toBe(25);
    expect(parsePageSize('x')).toBe(10);
  });

  it('sort is accepted only as a two-element [field, direction] array', () => {
    expect(parseSort('["name","ASC"]')).toEqual(['name', 'ASC']);
    expect(parseSort('["name","desc"]')).toEqual(['name', 'DESC']);
    expect(parseSort('["name"]')).toBeUndefined();
    expect(parseSort('["name","ASC","x"]')).toBeUndefined();
    expect(parseSort('{"field":"name"}')).toBeUndefined();
    expect(parseSort('["name","UP"]')).toBeUndefined();
    expect(parseSort('not json')).toBeUndefined();
  });

  it('filter is a JSON object or nothing', () => {
    expect(parseFilter('{"q":"ab"}')).toEqual({ q: 'ab' });
    expect(parseFilter('[1,2]')).toEqual({});
    expect(parseFilter('{bad')).toEqual({});
  });

  it('round-trips through the query string and keeps other parameters', () => {
    const written = writeListState(new URLSearchParams('tab=x'), {
      page: 3,
      pageSize: 20,
      sort: ['email', 'DESC'],
      filter: { q: 'acme', empty: '' },
    });
    expect(written.get('tab')).toBe('x');
    expect(readListState(written)).toEqual({ page: 3, pageSize: 20, sort: ['email', 'DESC'], filter: { q: 'acme' } });
    const cleared = writeListState(written, { page: 1, sort: undefined, filter: {} });
    expect(cleared.has('page')).toBe(false);
    expect(cleared.has('sort')).toBe(false);
    expect(cleared.has('filter')).toBe(false);
  });

  it('becomes the API range [offset, count]', () => {
    expect(toListQuery({ page: 3, pageSize: 20, filter: {} }).range).toEqual([40, 20]);
  });
});
