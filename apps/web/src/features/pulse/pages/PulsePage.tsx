import { lazy, Suspense } from 'react';
import { useAuth } from '../../../app/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useAfterFirstPaint } from '../../../lib/useAfterFirstPaint.ts';
import { PulseBodySkeleton } from '../components/PulseBodySkeleton.tsx';

/**
 * The body's code (cards, charts and tables: most of the page's) is requested as soon as this route
 * module runs, beside the shell's; the body renders once the header has painted (and its code has
 * arrived), so the title does not wait for the cards and tables to load, run and render.
 */
const body = import('../components/PulseBody.tsx');
const PulseBody = lazy(() => body);

/** Pulse (spec §2): "Pulse" and the dashboard's name, then the body. */
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
