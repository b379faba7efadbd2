import { describe, expect, it } from 'vitest';
import { deviceKey, planReports, roundsOf } from './report-plan.ts';

const report = (externalId: string, status: 0 | 1, at: string, name = externalId) => ({
  externalId,
  name,
  deviceType: 0,
  deviceModel: 'M',
  status,
  at,
});
const one = (reports: ReturnType<typeof report>[], portalId = 7) => [{ tenantId: 3, portalId, reports }];
const row = (id: number, externalId: string, created: boolean, portalId = 7) => ({
  id,
  tenant_id: 3,
  portal_id: portalId,
  external_id: externalId,
  status: 1,
  created,
});

describe('planReports / roundsOf', () => {
  it('orders each device’s reports by time, takes inventory from the newest and the first state from the oldest', () => {
    const plan = planReports(
      one([
        report('b', 1, '2026-11-22T06:03:00Z', 'B new'),
        report('a', 1, '2026-11-22T06:00:00Z'),
        report('b', 0, '2026-11-22T07:01:00+01:00', 'B old'),
      ]),
    );
    expect([...plan.inventory.externalIds].sort()).toEqual(['a', 'b']);
    const b = plan.inventory.externalIds.indexOf('b');
    expect(plan.inventory.names[b]).toBe('B new');
    expect(plan.inventory.statuses[b]).toBe(0);
    expect(plan.inventory.ats[b]).toBe('2026-11-22T06:01:00.000Z');
    expect(plan.inventory.portalIds).toEqual([7, 7]);
    expect(plan.inventory.tenantIds).toEqual([3, 3]);
    expect(plan.reportsByDevice.get(deviceKey(7, 'b'))).toEqual([
      { status: 0, at: '2026-11-22T06:01:00.000Z' },
      { status: 1, at: '2026-11-22T06:03:00.000Z' },
    ]);
  });

  it('builds one round per report index; a created device already holds its first report', () => {
    const plan = planReports(
      one([report('a', 1, '2026-11-22T06:00:00Z'), report('a', 0, '2026-11-22T06:01:00Z'), report('b', 1, '2026-11-22T06:00:00Z')]),
    );
    const rounds = roundsOf(plan, [row(1, 'a', false), row(2, 'b', true)]);
    expect(rounds).toEqual([
      { tenantIds: [3], portalIds: [7], deviceIds: [1], statuses: [1], ats: ['2026-11-22T06:00:00.000Z'] },
      { tenantIds: [3], portalIds: [7], deviceIds: [1], statuses: [0], ats: ['2026-11-22T06:01:00.000Z'] },
    ]);
  });

  it('a group keeps message order across messages (as if each had its own transaction) and tells portals apart', () => {
    // Message 2 reports an older time than message 1: applied after it, so it will be late, as it would be alone.
    const plan = planReports([
      { tenantId: 3, portalId: 7, reports: [report('a', 0, '2026-11-22T06:05:00Z', 'first')] },
      { tenantId: 3, portalId: 8, reports: [report('a', 1, '2026-11-22T06:00:00Z', 'other portal')] },
      { tenantId: 3, portalId: 7, reports: [report('a', 1, '2026-11-22T06:01:00Z', 'second')] },
    ]);
    expect(plan.inventory.externalIds).toEqual(['a', 'a']);
    expect(plan.inventory.portalIds).toEqual([7, 8]);
    // Inventory from the last message naming the device; first state from the first one.
    expect(plan.inventory.names).toEqual(['second', 'other portal']);
    expect(plan.inventory.statuses).toEqual([0, 1]);
    expect(plan.reportsByDevice.get(deviceKey(7, 'a'))).toEqual([
      { status: 0, at: '2026-11-22T06:05:00.000Z' },
      { status: 1, at: '2026-11-22T06:01:00.000Z' },
    ]);
    const rounds = roundsOf(plan, [row(1, 'a', false, 7), row(2, 'a', false, 8)]);
    expect(rounds.map((r) => r.deviceIds)).toEqual([[1, 2], [1]]);
  });
});
