import { describe, expect, it } from 'vitest';
import { isBlankMarkup, sanitizeComment } from './comment-html.ts';
import { unsafeMarkupProblems, xssPayloads } from '../../../test/kits/comments/xss-payloads.ts';

describe('comment sanitizer', () => {
  it('has well over 100 payloads to try', () => {
    expect(xssPayloads().length).toBeGreaterThanOrEqual(150);
  });

  it.each(xssPayloads())('leaves nothing executable of %s', (payload) => {
    const clean = sanitizeComment(`<p>before</p>${payload}<p>after</p>`);
    expect(unsafeMarkupProblems(clean)).toEqual([]);
  });

  it('the checker itself flags unsafe markup', () => {
    expect(unsafeMarkupProblems('<a href="javascript:alert(1)">x</a>')).not.toEqual([]);
    expect(unsafeMarkupProblems('<p onclick="x">x</p>')).not.toEqual([]);
    expect(unsafeMarkupProblems('<script>x</script>')).not.toEqual([]);
    expect(unsafeMarkupProblems('<img src="x">')).not.toEqual([]);
    expect(unsafeMarkupProblems('<p>ok <a href="https://e.example" rel="noopener noreferrer" target="_blank">e</a></p>')).toEqual([]);
  });

  it('keeps the allowed formatting and hardens links', () => {
    const html =
      '<p>Hi <strong>there</strong> <em>you</em> <u>u</u> <s>s</s></p><ul><li>one</li></ul><ol><li>two</li></ol><pre><code>x = 1</code></pre><br>';
    expect(sanitizeComment(html)).toBe(html.replace('<br>', '<br />'));
    expect(sanitizeComment('<a href="https://example.com/a?b=1">x</a>')).toBe(
      '<a href="https://example.com/a?b=1" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizeComment('<a href="mailto:ops@example.com">mail</a>')).toBe(
      '<a href="mailto:ops@example.com" rel="noopener noreferrer" target="_blank">mail</a>',
    );
    expect(sanitizeComment('<a href="//evil.example">p</a>')).toBe('<a rel="noopener noreferrer" target="_blank">p</a>');
    expect(sanitizeComment('<a href="/relative">r</a>')).toBe('<a rel="noopener noreferrer" target="_blank">r</a>');
  });

  it('keeps the text of stripped tags', () => {
    expect(sanitizeComment('<div><span>kept</span> <h1>title</h1></div>')).toBe('kept title');
  });

  it('recognises markup that shows nothing', () => {
    for (const blank of ['', '   ', '<p></p>', '<p><br></p>', '<p>&nbsp;</p>', '<p> </p><p><br/></p>', '<ul><li></li></ul>'])
      expect(isBlankMarkup(sanitizeComment(blank)), blank).toBe(true);
    expect(isBlankMarkup(sanitizeComment('<p>x</p>'))).toBe(false);
  });
});
