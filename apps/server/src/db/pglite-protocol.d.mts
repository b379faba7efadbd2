/** Types of pglite-protocol.mjs (plain JavaScript, loaded by the embedded database's thread). */
export interface ReadMessage {
  name: 'dataRow' | 'rowDescription' | 'commandComplete' | 'readyForQuery' | 'parameterDescription';
  [field: string]: unknown;
}

/** The properties an error of PostgreSQL carries besides its message (pg-protocol's names). */
export declare const ERROR_PROPERTIES: readonly string[];

export declare class ProtocolReader {
  /** What the exchange answered, in order, as pg-protocol names the messages. */
  readonly messages: ReadMessage[];
  /** The first ErrorResponse, as PGlite's DatabaseError. */
  readonly error: Error | undefined;
  /** Bytes of a message not yet complete (none once an exchange has ended). */
  readonly rest: Uint8Array | undefined;
  /** One chunk of output; answers how many bytes were taken (all). */
  push(chunk: Uint8Array): number;
}

/** A simple Query message, as PGlite's serializer writes it. */
export declare function queryMessage(text: string): Uint8Array;

/** A Parse message of the unnamed statement without parameter types, as PGlite's serializer writes it. */
export declare function parseMessage(text: string): Uint8Array;
