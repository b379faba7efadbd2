import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createPortal, createTenant, type TestPortal } from '../../factories.ts';
import { createTestApp, type TestApp } from '../../harness.ts';

/** Where the clock of each webhook test starts. */
export const WEBHOOK_TEST_START = '2026-11-22T06:00:00.000Z';

/**
 * The webhook tests' lifecycle: one app for the file, and before each test the clock at
 * WEBHOOK_TEST_START and a new tenant's portal, handed to `use` (the file keeps them in its own
 * variables, so tests stay independent of each other's devices).
 */
export function newPortalEachTest(use: (t: TestApp, portal: TestPortal) => void): void {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(WEBHOOK_TEST_START);
    use(t, await createPortal(t, await createTenant(t)));
  });
}
