import { createApi } from '@reduxjs/toolkit/query/react';
import type { FetchArgs } from '@reduxjs/toolkit/query';
import { pathOf, type Endpoint, type ListQueryInput } from '@vigil/contracts';
import { toListSearchParams } from '@vigil/contracts/routes';
import type { z } from 'zod';
import { createSessionBaseQuery } from './sessionBaseQuery.ts';

/**
 * The request body type of a contract endpoint. (The contracts' `BodyOf` resolves to
 * `never` because `body` is an optional property; this unwraps it.)
 */
export type RequestBodyOf<E extends Endpoint> = NonNullable<E['body']> extends z.ZodType ? z.input<NonNullable<E['body']>> : never;

/**
 * The one RTK Query API of the app. Features add their endpoints with
 * `api.injectEndpoints` in `features/<feature>/api.ts`, building requests from
 * the contracts' endpoint objects with `request()`.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: createSessionBaseQuery(),
  tagTypes: ['Me', 'Tenant', 'User', 'Portal', 'Case', 'Alert', 'Report', 'License', 'Device', 'Comment', 'Billing', 'Stats'],
  endpoints: () => ({}),
});

export interface RequestParts {
  params?: Record<string, string | number>;
  /** Plain query parameters. */
  query?: Record<string, string | number | undefined>;
  /** List query (range/sort/filter), JSON-encoded as the list endpoints read it. */
  list?: ListQueryInput;
  body?: unknown;
}

/** Builds the fetch arguments of a contract endpoint (path params filled, list query encoded). */
export function request(endpoint: Pick<Endpoint, 'method' | 'path'>, parts: RequestParts = {}): FetchArgs {
  const search = parts.list ? toListSearchParams(parts.list) : new URLSearchParams();
  for (const [key, value] of Object.entries(parts.query ?? {})) if (value !== undefined) search.set(key, String(value));
  const qs = search.toString();
  return {
    url: pathOf(endpoint.path, parts.params) + (qs ? `?${qs}` : ''),
    method: endpoint.method,
    ...(parts.body !== undefined ? { body: parts.body } : endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { body: {} }),
  };
}
