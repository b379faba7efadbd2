import { cases, devices, deviceStatusPeriods } from '../../../src/db/schema/index.ts';
import type { TestPortal } from '../../factories.ts';
import type { TestApp } from '../../harness.ts';

/** Test data written directly (as the superuser): a device with an exact status history. */
export async function deviceWithHistory(
  t: TestApp,
  portal: TestPortal,
  name: string,
  history: { status: 0 | 1; from: string; to?: string }[],
  deviceType = 0,
): Promise<number> {
  const last = history[history.length - 1];
  const [row] = await t.database.db
    .insert(devices)
    .values({
      tenantId: portal.tenantId,
      portalId: portal.id,
      externalId: `ext-${name}-${Math.random()}`,
      name,
      deviceType,
      deviceModel: 'Model R',
      status: last.status,
      lastReportAt: new Date(last.from),
      lastOnline: new Date(last.from),
      statusSince: new Date(last.from),
      firstSeenAt: new Date(history[0].from),
    })
    .returning({ id: devices.id });
  for (const p of history) {
    await t.database.db.insert(deviceStatusPeriods).values({
      tenantId: portal.tenantId,
      deviceId: row.id,
      portalId: portal.id,
      status: p.status,
      startedAt: new Date(p.from),
      endedAt: p.to ? new Date(p.to) : null,
    });
  }
  return row.id;
}

export async function caseAt(t: TestApp, portal: TestPortal, caseType: number, createdAt: string, completedAt?: string): Promise<void> {
  await t.database.db.insert(cases).values({
    tenantId: portal.tenantId,
    portalId: portal.id,
    caseType,
    createdAt: new Date(createdAt),
    completedAt: completedAt ? new Date(completedAt) : null,
  });
}
