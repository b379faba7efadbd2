import { useEffect, useState } from 'react';
import { LIMITS } from '@vigil/contracts';

export const SEARCH_DEBOUNCE_MS = 200;

/** The text to query for, or '' when it is shorter than the minimum (docs/product.md "Validation": 2+ characters). */
export function searchTermOf(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= LIMITS.searchMinChars ? trimmed : '';
}

/** The value, once it has stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

export interface HighlightPart {
  text: string;
  match: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Splits a label into parts, marking each occurrence of any word of the query (case-insensitive). */
export function highlightParts(label: string, query: string): HighlightPart[] {
  const words = query
    .split(/\s+/)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  if (words.length === 0 || !label) return [{ text: label, match: false }];
  const pattern = new RegExp(`(${words.map(escape).join('|')})`, 'gi');
  return label
    .split(pattern)
    .filter((text) => text !== '')
    .map((text) => ({ text, match: words.some((w) => w.toLowerCase() === text.toLowerCase()) }));
}
