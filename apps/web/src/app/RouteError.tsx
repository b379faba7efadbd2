import { lazy, Suspense } from 'react';
import { OOPS } from './oops.ts';

/**
 * The router's error element. The Oops page (antd's Result, whose module carries its status
 * illustrations: about 10 KB gzip) loads only when an error happens. If its chunk cannot load
 * either (offline, a new deployment), a plain page says the same.
 */
function PlainOops() {
  return (
    <main id="error-page" style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24, textAlign: 'center' }}>
      <div>
        <h1 style={{ fontSize: 24 }}>{OOPS}</h1>
        <a href="/">Back to home</a>
      </div>
    </main>
  );
}

const ErrorPage = lazy(() =>
  import('./ErrorPage.tsx').then(
    (m) => ({ default: m.ErrorPage }),
    () => ({ default: PlainOops }),
  ),
);

export function RouteError() {
  return (
    <Suspense fallback={null}>
      <ErrorPage />
    </Suspense>
  );
}
