import { maintenanceEndpoints as mw, statsEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceJob } from '../../jobs/maintenance.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { rollUpAllTenants } from '../stats/index.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { renewTokens } from '../../../test/kits/cases/operations-test-support.ts';
import { reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * A maintenance window on a 1,000-device portal changes no reliability figure outside its own time and
 * devices (docs/maintenance.md "How every figure leaves maintenance out"). Two tenants live the same
 * history through the webhooks (UTC, so a trend day is a UTC day); only the first schedules a window over
 * its big portal on 25 November 00:00-12:00. Every daily score of both trends (company and per portal,
 * from the rollups) is then equal between the twins, except 25 November of the big portal and of the
 * company, which only the window may change (and does: its offline time leaves observed time).
 */
const day = (d: number, hours = 0, minutes = 0) => new Date(Date.UTC(2026, 10, d, hours, minutes));
const BIG = 1000;

let t: TestApp;
interface Twin {
  cast: Awaited<ReturnType<typeof createCast>>;
  big: TestPortal;
  small: TestPortal;
}
let twins: Twin[];

const ids = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
const reports = (externalIds: string[], status: 0 | 1, at: Date) => externalIds.map((externalId) => ({ externalId, status, at }));

async function setClock(when: Date): Promise<void> {
  t.clock.set(when);
  await renewTokens(
    t,
    twins.map((w) => w.cast.admin),
  );
}

/** The same reports to both twins' portals at `when`. */
async function both(when: Date, big: { ids: string[]; status: 0 | 1 }[], small: { ids: string[]; status: 0 | 1 }[] = []) {
  await setClock(when);
  for (const w of twins) {
    for (const [portal, groups] of [
      [w.big, big],
      [w.small, small],
    ] as const)
      for (const g of groups) expect((await sendWebhook(t, portal, reported(reports(g.ids, g.status, when)))).status).toBe(202);
  }
}

async function tickMaintenance(when: Date): Promise<void> {
  await setClock(when);
  expect(await runTickOnce(t.deps, maintenanceJob)).toBe(true);
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(day(20));
  twins = [];
  for (const name of ['A', 'B']) {
    const cast = await createCast(t);
    twins.push({
      cast,
      big: await createPortal(t, cast.tenant, `Campus ${name}`),
      small: await createPortal(t, cast.tenant, `Depot ${name}`),
    });
  }
  // 20 Nov: everything reports online. 23 Nov 12:00: 200 big-portal devices and 2 small ones go offline.
  await both(day(20), [{ ids: ids('d', 0, BIG), status: 1 }], [{ ids: ids('s', 0, 10), status: 1 }]);
  await both(day(23, 12), [{ ids: ids('d', 0, 200), status: 0 }], [{ ids: ids('s', 0, 2), status: 0 }]);

  // Twin A schedules the window just before it begins; the job moves the portal into maintenance.
  await setClock(day(24, 23, 50));
  const created = await t.call(mw.create, {
    token: twins[0].cast.admin.token,
    body: { customerId: twins[0].big.id, startsAt: day(25).toISOString(), endsAt: day(25, 12).toISOString(), reason: 'Firmware' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await tickMaintenance(day(25, 0, 0));

  // Inside the window: 100 come back, 50 others go offline. After it: 50 more come back.
  await both(day(25, 6), [
    { ids: ids('d', 0, 100), status: 1 },
    { ids: ids('d', 500, 550), status: 0 },
  ]);
  await tickMaintenance(day(25, 12, 0));
  await both(day(26, 6), [{ ids: ids('d', 100, 150), status: 1 }], [{ ids: ids('s', 0, 1), status: 1 }]);

  await setClock(day(27, 12));
  await rollUpAllTenants(t.database, day(27, 12));
}, 120_000);
afterAll(() => t.close());

async function trends(w: Twin) {
  const token = w.cast.admin.token;
  const company = await t.call(statsEndpoints.reliabilityTrend, { token });
  const big = await t.call(statsEndpoints.customerReliabilityTrend, { token, params: { id: w.big.id } });
  const small = await t.call(statsEndpoints.customerReliabilityTrend, { token, params: { id: w.small.id } });
  for (const res of [company, big, small]) expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { company: company.body.data.days, big: big.body.data.days, small: small.body.data.days };
}

describe('a maintenance window on a 1,000-device portal', () => {
  it('changes no daily score outside its own day and portal, and raises that one', async () => {
    const [a, b] = await Promise.all(twins.map(trends));
    const windowDay = '2026-11-25';
    for (const key of ['company', 'big', 'small'] as const) {
      expect(a[key].map((d) => d.date)).toEqual(b[key].map((d) => d.date));
      expect(a[key].at(-1)?.date).toBe('2026-11-27');
      const outside = (days: { date: string; score: number }[]) => (key === 'small' ? days : days.filter((d) => d.date !== windowDay));
      expect(outside(a[key]), key).toEqual(outside(b[key]));
    }
    const scoreOn = (days: { date: string; score: number }[]) => days.find((d) => d.date === windowDay)!.score;
    // Without the window: 200 offline until 06:00, then 150 (100 back, 50 new): 3,900 of 24,000 device-hours.
    expect(scoreOn(b.big)).toBe(83.8);
    expect(scoreOn(a.big)).toBeGreaterThan(scoreOn(b.big));
    expect(scoreOn(a.company)).toBeGreaterThan(scoreOn(b.company));
    // The days before the window are what they were: 23 Nov had 200 of 1,000 offline for 12 hours.
    expect(b.big.find((d) => d.date === '2026-11-23')!.score).toBe(90);
  });

  it('excludes exactly the window from the big portal: its offline time after 12:00 counts as before', async () => {
    const [a] = await Promise.all(twins.slice(0, 1).map(trends));
    // 25 Nov with the window: 00:00-12:00 not observed; 12:00-24:00 150 of 1,000 offline (the devices still
    // offline when it ended count as going offline at 12:00): 85.0.
    expect(a.big.find((d) => d.date === '2026-11-25')!.score).toBe(85);
    expect(
      (
        await t.call(mw.list, {
          token: twins[0].cast.admin.token,
          query: { filter: { customerId: twins[0].big.id } },
        })
      ).body.data.list[0],
    ).toMatchObject({ inForce: false, nextStartsAt: null });
  });
});
