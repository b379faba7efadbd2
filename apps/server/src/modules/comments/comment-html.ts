import sanitizeHtml from 'sanitize-html';

/**
 * The comment allow-list (docs/decisions.md 31): paragraphs, line breaks, bold, italic,
 * underline, strike, lists, code, and links with http/https/mailto only, which
 * open in a new tab without access to the opener. Any other tag is dropped with
 * its text kept; script/style-like elements are dropped with their content.
 */
const isAllowedHref = (href: string | undefined) => href !== undefined && /^(https?:\/\/|mailto:)[^\s]/i.test(href.trim());

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'ul', 'ol', 'li', 'a', 'code', 'pre'],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'title',
    'xmp',
    'noembed',
    'noframes',
    'plaintext',
  ],
  transformTags: {
    // Only absolute http/https/mailto links keep their href (relative or odd URLs are dropped, text kept).
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...(isAllowedHref(attribs.href) ? { href: attribs.href.trim() } : {}), rel: 'noopener noreferrer', target: '_blank' },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
};

export function sanitizeComment(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Whether sanitized markup shows nothing: no text once tags, entities for spaces and whitespace are gone. */
export function isBlankMarkup(html: string): boolean {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&nbsp;|&#160;|&#xa0;|\u00a0|\u200b|\s/gi, '').length === 0;
}
