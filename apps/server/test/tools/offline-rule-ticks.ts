/**
 * What ticks of the Device Offline rule (alerts/offline-alert-rule.repository.ts) cost on a database as it
 * is (not a test, not the bench harness; docs/performance-choices.md "The Device Offline rule reads a
 * device's newest alert first"): TICKS ticks in a row on DATABASE_URL, each timed, with the open offline
 * periods, the alert_devices rows and the open Device Offline alerts counted first. The ticks are the
 * real rule: the first opens and joins alerts for the offline devices no open alert holds, the later
 * ones usually have nothing to do. Meant for the bench's L database after its ingestion runs.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/vigil_bench_l npx tsx apps/server/test/tools/offline-rule-ticks.ts
 *   Env: TICKS (3)
 */
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import { createEventBus } from '../../src/events/bus.ts';
import { applyOfflineAlertRules } from '../../src/modules/alerts/offline-alert-rule.repository.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL: the PostgreSQL database to tick on');
const database = await openDatabase({ databaseUrl });
try {
  const [counts] = await queryRows<{ offline: number; alertDevices: number; open: number }>(
    database.db,
    sql`select (select count(*)::int from device_status_periods where ended_at is null and status = 0) as offline,
               (select count(*)::int from alert_devices) as "alertDevices",
               (select count(*)::int from alerts where alert_type = 0 and resolved_at is null) as open`,
  );
  console.log(`${counts.offline} offline devices, ${counts.alertDevices} alert_devices rows, ${counts.open} open Device Offline alerts`);
  const bus = createEventBus(database);
  for (let i = 0; i < Number(process.env.TICKS ?? 3); i++) {
    const t0 = performance.now();
    const opened = await applyOfflineAlertRules({ database, bus }, new Date());
    console.log(`tick ${i + 1}: ${(performance.now() - t0).toFixed(0)} ms, ${opened.length} alerts opened`);
  }
} finally {
  await database.close();
}
process.exit(0);
