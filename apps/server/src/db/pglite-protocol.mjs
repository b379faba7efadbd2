// The backend messages of one PGlite exchange, read straight from the bytes its wasm writes
// (pglite-statements.mjs exchange). Plain JavaScript, loaded by the embedded database's thread.
//
// Why not PGlite's own parser (pg-protocol's, bundled): it copies the whole output into a new
// ArrayBuffer, then every string field into another one (`ArrayBuffer.prototype.slice`, each a
// malloc'd backing store the garbage collector sweeps), and reads its private fields through
// WeakMaps (its bundle compiles `#fields` down). A devices page at 50 connections spent about a
// fifth of the database thread's CPU there (docs/performance-choices.md "The embedded database's protocol
// reader"). This reader decodes each field in place and builds only what the worker and PGlite's
// parseResults read: the same message names and fields, so results stay PGlite's.
import { messages } from '@electric-sql/pglite';

const { DatabaseError } = messages;

/** Message codes (PostgreSQL's protocol) this reader keeps; all others are skipped. */
const DATA_ROW = 0x44; // D
const ROW_DESCRIPTION = 0x54; // T
const COMMAND_COMPLETE = 0x43; // C
const READY_FOR_QUERY = 0x5a; // Z
const PARAMETER_DESCRIPTION = 0x74; // t
const ERROR_RESPONSE = 0x45; // E
const COPY_IN = 0x47; // G
const COPY_OUT = 0x48; // H

/** ErrorResponse field codes -> DatabaseError properties (pg-protocol's names). */
const ERROR_FIELDS = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** The properties an error of PostgreSQL carries besides its message (pg-protocol's names). */
export const ERROR_PROPERTIES = Object.values(ERROR_FIELDS);

// The two frontend messages whose text changes, written here for the worker: PGlite's writer
// (pg-protocol's serializer) allocates an ArrayBuffer of its own for every message it writes, and
// those allocations were most of the 28 microseconds it took to write a read statement's six
// constant messages (now written once in pglite-worker.mjs); these come from Node's buffer pool.
// Byte for byte what PGlite's serializer writes (pglite-protocol.test.ts).

/** A simple Query: 'Q', its length, the text and a NUL. */
export function queryMessage(text) {
  const size = Buffer.byteLength(text);
  const out = Buffer.allocUnsafe(size + 6);
  out[0] = 0x51;
  out.writeInt32BE(size + 5, 1);
  out.write(text, 5, 'utf8');
  out[size + 5] = 0;
  return out;
}

/** A Parse of the unnamed statement without parameter types: 'P', its length, '' and the text (each with its NUL), no types. */
export function parseMessage(text) {
  const size = Buffer.byteLength(text);
  const out = Buffer.allocUnsafe(size + 9);
  out[0] = 0x50;
  out.writeInt32BE(size + 8, 1);
  out[5] = 0;
  out.write(text, 6, 'utf8');
  out[size + 6] = 0;
  out.writeInt16BE(0, size + 7);
  return out;
}

/**
 * Reads messages from the chunks PGlite writes during one exchange. A message can straddle two
 * chunks (PGlite flushes its send buffer when full): the unread tail is kept (copied: a chunk is a
 * view of the wasm memory, reused by the next write) and read with the next chunk.
 */
export class ProtocolReader {
  constructor() {
    /** What the exchange answered, in order: `{ name, ... }` as pg-protocol names them. */
    this.messages = [];
    /** The first ErrorResponse (PGlite throws it after the exchange and keeps nothing after it). */
    this.error = undefined;
    this.rest = undefined;
  }

  /** One chunk of output (a view of the wasm memory, valid during this call only). */
  push(chunk) {
    let bytes = chunk;
    if (this.rest) {
      bytes = new Uint8Array(this.rest.length + chunk.length);
      bytes.set(this.rest);
      bytes.set(chunk, this.rest.length);
      this.rest = undefined;
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    while (at + 5 <= buffer.length) {
      const length = buffer.readUInt32BE(at + 1);
      if (at + 1 + length > buffer.length) break;
      if (this.error === undefined) this.read(buffer, buffer[at], at + 5, at + 1 + length);
      at += 1 + length;
    }
    if (at < buffer.length) this.rest = bytes.slice(at);
    return chunk.length;
  }

  read(buffer, code, start, end) {
    switch (code) {
      case DATA_ROW: {
        const count = buffer.readInt16BE(start);
        const fields = new Array(count);
        let at = start + 2;
        for (let i = 0; i < count; i++) {
          const length = buffer.readInt32BE(at);
          at += 4;
          if (length === -1) fields[i] = null;
          else {
            fields[i] = buffer.utf8Slice(at, at + length);
            at += length;
          }
        }
        this.messages.push({ name: 'dataRow', fields });
        return;
      }
      case ROW_DESCRIPTION: {
        const count = buffer.readInt16BE(start);
        const fields = new Array(count);
        let at = start + 2;
        for (let i = 0; i < count; i++) {
          const nul = buffer.indexOf(0, at);
          const name = buffer.utf8Slice(at, nul);
          // name, table oid (4), column number (2), type oid (4), type size (2), modifier (4), format (2)
          fields[i] = { name, dataTypeID: buffer.readInt32BE(nul + 7) };
          at = nul + 19;
        }
        this.messages.push({ name: 'rowDescription', fields });
        return;
      }
      case COMMAND_COMPLETE:
        this.messages.push({ name: 'commandComplete', text: buffer.utf8Slice(start, end - 1) });
        return;
      case READY_FOR_QUERY:
        this.messages.push({ name: 'readyForQuery', status: String.fromCharCode(buffer[start]) });
        return;
      case PARAMETER_DESCRIPTION: {
        const count = buffer.readUInt16BE(start);
        const dataTypeIDs = new Array(count);
        for (let i = 0; i < count; i++) dataTypeIDs[i] = buffer.readInt32BE(start + 2 + 4 * i);
        this.messages.push({ name: 'parameterDescription', dataTypeIDs });
        return;
      }
      case ERROR_RESPONSE:
        this.error = errorOf(buffer, start, end);
        return;
      case COPY_IN:
      case COPY_OUT:
        // Nothing here runs COPY (it would need PGlite's /dev/blob handling): refused loudly.
        this.error = new DatabaseError('pglite worker: COPY is not supported', end - start + 4, 'error');
        return;
      default:
      // ParseComplete, BindComplete, CloseComplete, NoData, PortalSuspended, EmptyQueryResponse,
      // NoticeResponse (PGlite drops notices unless asked), NotificationResponse (this process keeps
      // its own notifications: pglite-notifications.ts), ParameterStatus: nothing reads them.
    }
  }
}

/** An ErrorResponse as pg-protocol's DatabaseError (same message, name and fields). */
function errorOf(buffer, start, end) {
  const fields = {};
  let at = start;
  while (at < end && buffer[at] !== 0) {
    const type = String.fromCharCode(buffer[at]);
    const nul = buffer.indexOf(0, at + 1);
    fields[type] = buffer.utf8Slice(at + 1, nul);
    at = nul + 1;
  }
  const error = new DatabaseError(fields.M, end - start + 4, 'error');
  for (const [type, property] of Object.entries(ERROR_FIELDS)) error[property] = fields[type];
  return error;
}
