import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, createTenant } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { countRows, reported, sendWebhook } from './webhook-test-kit.ts';

/**
 * Measures (does not assert) how many device events per second signed 1,000-device
 * messages reach through HTTP, signature and all. Prints one line per phase; the
 * assertions only check that every event was applied.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DEVICES = 1000;
const MESSAGES = 10;

describe('ingestion throughput (figure printed, not asserted)', () => {
  it('applies 1,000-device messages: creation, then half the devices changing status each message', async () => {
    t.clock.set('2026-11-22T06:00:00.000Z');
    const portal = await createPortal(t, await createTenant(t));
    const base = t.clock.now().getTime() - 4 * 60_000;
    const message = (round: number) =>
      reported(Array.from({ length: DEVICES }, (_, i) => ({ externalId: `dev-${i}`, deviceType: i % 5, status: ((i + round) % 2) as 0 | 1, at: new Date(base + round * 1000) })));
    const bodies = Array.from({ length: MESSAGES + 1 }, (_, round) => message(round));

    let started = performance.now();
    expect((await sendWebhook(t, portal, bodies[0])).status).toBe(202);
    const createMs = performance.now() - started;

    started = performance.now();
    for (let round = 1; round <= MESSAGES; round++) expect((await sendWebhook(t, portal, bodies[round])).status).toBe(202);
    const updateMs = performance.now() - started;

    const db = process.env.VIGIL_TEST_DB ?? 'pglite';
    console.log(
      `[ingest-throughput ${db}] create: ${DEVICES} devices in ${createMs.toFixed(0)} ms = ${Math.round((DEVICES / createMs) * 1000)} events/s; ` +
        `status changes: ${MESSAGES} x ${DEVICES} in ${updateMs.toFixed(0)} ms = ${Math.round(((MESSAGES * DEVICES) / updateMs) * 1000)} events/s`,
    );
    expect(await countRows(t, 'devices', portal.id)).toBe(DEVICES);
    // Every device changed status in every message: one period per report.
    expect(await countRows(t, 'device_status_periods', portal.id)).toBe(DEVICES * (MESSAGES + 1));
  });
});
