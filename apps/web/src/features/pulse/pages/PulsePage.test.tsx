import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** What the page sees: whether the header has painted, and whether the body's module was loaded. */
const state = vi.hoisted(() => ({ painted: false, bodyLoaded: false }));

vi.mock('../../../lib/useAfterFirstPaint.ts', () => ({ useAfterFirstPaint: () => state.painted }));
vi.mock('../../../lib/state/hooks.ts', () => ({ useAuth: () => ({ tenantName: 'Acme Security' }) }));
vi.mock('../../../components/PageHeader.tsx', () => ({ PageHeader: ({ title }: { title: string }) => <h3>{title}</h3> }));
vi.mock('../components/PulseBodySkeleton.tsx', () => ({ PulseBodySkeleton: () => <div>skeleton</div> }));
vi.mock('../components/PulseBody.tsx', () => {
  state.bodyLoaded = true;
  return { default: () => <div>pulse body</div> };
});

afterEach(cleanup);

describe('PulsePage', () => {
  it('renders the header first and requests the body only once the header has painted', async () => {
    const { default: PulsePage } = await import('./PulsePage.tsx');
    const { rerender } = render(<PulsePage />);
    expect(screen.getByRole('heading', { name: 'Pulse Acme Security' })).toBeTruthy();
    expect(screen.getByText('skeleton')).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    // Loading the route's module did not start loading the body: its code waits for the first paint.
    expect(state.bodyLoaded).toBe(false);

    state.painted = true;
    rerender(<PulsePage />);
    expect(await screen.findByText('pulse body')).toBeTruthy();
    expect(state.bodyLoaded).toBe(true);
    expect(screen.getByRole('heading', { name: 'Pulse Acme Security' })).toBeTruthy();
  });
});
