/** Types of pglite-results.mjs (plain JavaScript, loaded by the embedded database's thread). */
import type { Results } from '@electric-sql/pglite';
import type { ReadMessage } from './pglite-protocol.mjs';

/** PGlite's query options as the worker passes them: the row mode and parsers by type oid. */
export interface ResultOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** The result sets of an exchange's messages, equal to PGlite's `parse.parseResults` of them. */
export declare function resultsOf(
  messages: readonly ReadMessage[],
  defaultParsers: Record<number | string, (value: string, typeId?: number) => unknown>,
  options?: ResultOptions,
): Results[];
