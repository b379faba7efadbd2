import { lazy, Suspense } from 'react';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useAfterFirstPaint } from '../../../lib/useAfterFirstPaint.ts';
import { PulseBodySkeleton } from '../components/PulseBodySkeleton.tsx';

/**
 * The body's code (cards, charts and tables: most of the page's) is requested once the header has painted,
 * when the body first renders, so the title does not wait for the cards and tables to load, run and render,
 * nor share the CPU with fetching and compiling them. (Requested with the route instead, the body's ~20
 * files loaded and compiled while the header was still rendering: LCP 2,416 vs 2,092 ms median, TBT after
 * FCP ~305 vs ~257 ms, interleaved A/B of 6+6 cold loads at S, lower in every pair.)
 */
const PulseBody = lazy(() => import('../components/PulseBody.tsx'));

/** Pulse (docs/web-pages.md "Pages"): "Pulse" and the dashboard's name, then the body. */
export default function PulsePage() {
  const auth = useAuth();
  const title = auth.tenantName ? `Pulse ${auth.tenantName}` : 'Pulse';
  const headerPainted = useAfterFirstPaint();
  return (
    <>
      <PageHeader title={title} />
      {headerPainted ? (
        <Suspense fallback={<PulseBodySkeleton />}>
          <PulseBody />
        </Suspense>
      ) : (
        <PulseBodySkeleton />
      )}
    </>
  );
}
