/** Socket error codes of a database connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that is going away or not there yet: 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery), and class 08,
 * connection exceptions.
 */
const isUnavailableState = (code: string) => code === '57P01' || code === '57P02' || code === '57P03' || /^08[0-9A-Z]{3}$/.test(code);

/** node-postgres' own messages for a connection lost, refused or never made in time. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|terminating connection|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|the database system is (starting up|shutting down|in recovery)|ECONNREFUSED|ECONNRESET/i;

/**
 * Whether `err` says the database cannot be reached right now (refused, lost, restarting), rather
 * than that a statement failed: such a request is answered 503 UNAVAILABLE, never 500. Looks through
 * drizzle's wrapper (`cause`) and the AggregateError of a multi-address connect.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 5 || seen.has(e)) return false;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnavailableState(code))) return true;
    // drizzle's "Failed query: <text> params: <values>" quotes the request's values: only its cause counts.
    if (typeof message === 'string' && !message.startsWith('Failed query') && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (Array.isArray(errors) && errors.some((x) => walk(x, depth + 1))) return true;
    return walk(cause, depth + 1);
  };
  return walk(err, 0);
}
