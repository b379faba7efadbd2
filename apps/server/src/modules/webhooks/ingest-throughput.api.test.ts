import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, createTenant } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { countRows, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * Measures (does not assert) how many device events per second signed 1,000-device
 * messages reach through HTTP (inject), signature, validation and PGlite (or PostgreSQL).
 * Prints wall-clock and CPU-time rates per phase; the assertions only check that every
 * event was applied. On PostgreSQL the CPU figure leaves out the database server's work.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DEVICES = 1000;
const MESSAGES = 10;

describe('ingestion throughput (figure printed, not asserted)', () => {
  it('applies 1,000-device messages: creation, heartbeats without change, every device changing status', async () => {
    t.clock.set('2026-11-22T06:00:00.000Z');
    const portal = await createPortal(t, await createTenant(t));
    const base = t.clock.now().getTime() - 4 * 60_000;
    let round = 0;
    let parity = 0;
    const message = (flip: boolean) => {
      round++;
      if (flip) parity ^= 1;
      return reported(
        Array.from({ length: DEVICES }, (_, i) => ({
          externalId: `dev-${i}`,
          deviceType: i % 5,
          status: ((i + parity) % 2) as 0 | 1,
          at: new Date(base + round * 1000),
        })),
      );
    };
    async function phase(label: string, count: number, flip: boolean): Promise<string> {
      const bodies = Array.from({ length: count }, () => message(flip));
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      for (const body of bodies) expect((await sendWebhook(t, portal, body)).status).toBe(202);
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      // CPU time of this process (HTTP, signature, PGlite all run in it): a figure a busy machine does not distort.
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const events = count * DEVICES;
      return `${label}: ${events} events in ${ms.toFixed(0)} ms wall = ${Math.round((events / ms) * 1000)}/s, ${cpuMs.toFixed(0)} ms CPU = ${Math.round((events / cpuMs) * 1000)}/CPU-s`;
    }
    const lines = [
      await phase('create', 1, false),
      await phase('heartbeats (no change)', MESSAGES, false),
      await phase('all change status', MESSAGES, true),
    ];
    console.log(`[ingest-throughput ${process.env.VIGIL_TEST_DB ?? 'pglite'}] ${lines.join('; ')}`);
    expect(await countRows(t, 'devices', portal.id)).toBe(DEVICES);
    // Creation and every flipping message open one period per device; heartbeats open none.
    expect(await countRows(t, 'device_status_periods', portal.id)).toBe(DEVICES * (MESSAGES + 1));
  });
});
