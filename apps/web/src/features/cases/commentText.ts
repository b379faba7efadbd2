import DOMPurify from 'dompurify';

/**
 * Whether the editor holds nothing worth saving: empty, or only empty paragraphs
 * (`<p></p>`, `<p><br></p>`, whitespace / &nbsp;). Save is disabled then (docs/operations.md "Comments").
 */
export function isEmptyComment(html: string | null | undefined): boolean {
  if (!html) return true;
  const text = html
    .replace(/<br\s*\/?>/gi, '')
    .replace(/<\/?p[^>]*>/gi, '')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .trim();
  return text === '';
}

/** Initials of a user name for the avatar: first letters of the first two words, upper case. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  return words
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');
}

/** The allow-list of docs/decisions.md 31, enforced again in the browser before rendering. */
const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'ul', 'ol', 'li', 'a', 'code'];

export function sanitizeComment(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'target', 'rel'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
