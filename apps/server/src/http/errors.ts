import { STATUS_MESSAGES } from '@vigil/contracts';

/** Every error code the API answers with, and its HTTP status (one table). */
export const ERROR_STATUS = {
  /** A request failed its schema or a business rule on input. */
  VALIDATION_FAILED: 400,
  /** No valid access token, or a bad sign-in / refresh / webhook signature. */
  UNAUTHORIZED: 401,
  /** The portal cannot be created without a subscription, a free portal or a free tier. */
  PAYMENT_REQUIRED: 402,
  /** Signed in, but the role may not do this. */
  FORBIDDEN: 403,
  /** Nonexistent, or another tenant's (no existence oracle). */
  NOT_FOUND: 404,
  /** The request conflicts with the current state (e.g. an email already used). */
  CONFLICT: 409,
  /** Well-formed but not processable (e.g. a checkout session of another tenant). */
  UNPROCESSABLE: 422,
  /** Too many attempts; the message says when to try again. */
  RATE_LIMITED: 429,
  /** Unexpected failure; the body is generic and carries the request id. */
  INTERNAL: 500,
  /** The database is unreachable; try again shortly. */
  UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
    /** Extra fields of the answer's `error` object (e.g. readyz's `checks`). */
    readonly details: Record<string, unknown> = {},
  ) {
    const status = ERROR_STATUS[code];
    super(message ?? STATUS_MESSAGES[status] ?? 'An unexpected error occurred.');
    this.status = status;
  }
}

export const notFound = (msg?: string) => new AppError('NOT_FOUND', msg);
export const forbidden = (msg?: string) => new AppError('FORBIDDEN', msg);
export const badRequest = (msg: string) => new AppError('VALIDATION_FAILED', msg);
export const unauthorized = (msg?: string) => new AppError('UNAUTHORIZED', msg);
export const conflict = (msg: string) => new AppError('CONFLICT', msg);
