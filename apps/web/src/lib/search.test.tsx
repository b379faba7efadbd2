import { describe, expect, it } from 'vitest';
import { highlightParts, searchTermOf } from './search.ts';

describe('highlight', () => {
  it('marks each query word, ignoring case', () => {
    expect(highlightParts('North Harbor Mall', 'harbor NORTH')).toEqual([
      { text: 'North', match: true },
      { text: ' ', match: false },
      { text: 'Harbor', match: true },
      { text: ' Mall', match: false },
    ]);
  });
  it('escapes regex characters and leaves unmatched labels whole', () => {
    expect(highlightParts('A+B (east)', '(east')).toEqual([
      { text: 'A+B ', match: false },
      { text: '(east', match: true },
      { text: ')', match: false },
    ]);
    expect(highlightParts('Depot', 'zz')).toEqual([{ text: 'Depot', match: false }]);
  });
  it('queries only 2+ characters', () => {
    expect(searchTermOf('a')).toBe('');
    expect(searchTermOf(' ab ')).toBe('ab');
  });
});
