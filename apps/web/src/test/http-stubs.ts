import { vi } from 'vitest';

/** An API answer: `body` as JSON with `status`. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Lets the app's relative request URLs (`/v0/...`, as the API client builds them) be parsed under
 * jsdom, whose Request needs an absolute URL: they are made absolute on http://vigil.test. The tests
 * stub `fetch` themselves and read the pathname; `vi.unstubAllGlobals()` puts Request back.
 */
export function stubRelativeRequests(): void {
  const NativeRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends NativeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' && input.startsWith('/') ? `http://vigil.test${input}` : input, init);
      }
    },
  );
}
