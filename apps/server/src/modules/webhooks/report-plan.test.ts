import { describe, expect, it } from 'vitest';
import { planReports, roundsOf } from './report-plan.ts';

const report = (externalId: string, status: 0 | 1, at: string, name = externalId) => ({ externalId, name, deviceType: 0, deviceModel: 'M', status, at });

describe('planReports / roundsOf', () => {
  it('orders each device’s reports by time, takes inventory from the newest and the first state from the oldest', () => {
    const plan = planReports([
      report('b', 1, '2026-11-22T06:03:00Z', 'B new'),
      report('a', 1, '2026-11-22T06:00:00Z'),
      report('b', 0, '2026-11-22T07:01:00+01:00', 'B old'),
    ]);
    expect(plan.inventory.externalIds).toEqual(['a', 'b']);
    expect(plan.inventory.names).toEqual(['a', 'B new']);
    expect(plan.inventory.statuses).toEqual([1, 0]);
    expect(plan.inventory.ats).toEqual(['2026-11-22T06:00:00.000Z', '2026-11-22T06:01:00.000Z']);
    expect(plan.reportsByDevice.get('b')).toEqual([
      { status: 0, at: '2026-11-22T06:01:00.000Z' },
      { status: 1, at: '2026-11-22T06:03:00.000Z' },
    ]);
  });

  it('builds one round per report index; a created device already holds its first report', () => {
    const plan = planReports([report('a', 1, '2026-11-22T06:00:00Z'), report('a', 0, '2026-11-22T06:01:00Z'), report('b', 1, '2026-11-22T06:00:00Z')]);
    const rounds = roundsOf(plan, [
      { id: 1, external_id: 'a', status: 1, created: false },
      { id: 2, external_id: 'b', status: 1, created: true },
    ]);
    expect(rounds).toEqual([
      { deviceIds: [1], statuses: [1], ats: ['2026-11-22T06:00:00.000Z'] },
      { deviceIds: [1], statuses: [0], ats: ['2026-11-22T06:01:00.000Z'] },
    ]);
  });
});
