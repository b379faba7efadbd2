import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { NETWORK_ERROR, STATUS_MESSAGES, UNEXPECTED_ERROR } from '@vigil/contracts';

/** The text an error body carries, if any: plain text, `{error: "..."}` or `{error: {msg}}` (docs/product.md "Messages"). */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const error = (body as { error?: unknown; msg?: unknown }).error;
  if (typeof error === 'string' && error) return error;
  if (error && typeof error === 'object') {
    const inner = error as { msg?: unknown; error?: unknown };
    if (typeof inner.msg === 'string' && inner.msg) return inner.msg;
    if (typeof inner.error === 'string' && inner.error) return inner.error;
  }
  return undefined;
}

/**
 * Status -> default message of the product's catalogue (docs/product.md "Messages"), overridden by the body's own text.
 * Takes RTK Query's error union as hooks and mutation results give it; a SerializedError
 * (an exception, not an HTTP answer) has no status or body and gets the generic message.
 */
export function messageOf(error: FetchBaseQueryError | SerializedError | undefined): string {
  if (!error || !('status' in error)) return UNEXPECTED_ERROR;
  const { status, data } = error;
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return NETWORK_ERROR;
  const code = typeof status === 'number' ? status : 'originalStatus' in error ? error.originalStatus : undefined;
  const fromBody = bodyMessage(data);
  if (fromBody && !/^\s*</.test(fromBody)) return fromBody;
  if (typeof code === 'number') return STATUS_MESSAGES[code] ?? UNEXPECTED_ERROR;
  return UNEXPECTED_ERROR;
}
