/**
 * What a flip back-dated by the offline sweep costs the Pulse reads that follow it (not a test, not the
 * bench harness; docs/performance-choices.md "Marks carried over a back-dated change"): the real app in
 * this process on a copy of the bench's seeded S data (seeded-app.ts), the main tenant's devices given
 * ten flips each over the last 9 minutes (as heavy ingestion leaves them), then four rounds of: a read
 * 1.2 s after the last (a new mark), one device's flip back-dated by 60 s, two reads; then four of: a
 * read 1.2 s after the last, two flips of every device dated after the mark (heavy ingestion), two reads.
 *
 *   npx tsx apps/server/test/tools/marks-after-sweep.ts      Env: LISTS_SEED_DIR (default $TMPDIR/vigil-bench-pglite-S)
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { defaultSeedDir, openSeededApp } from './seeded-app.ts';

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function main() {
  const seeded = await openSeededApp({ seedDir: process.env.LISTS_SEED_DIR ?? defaultSeedDir() });
  const urls = {
    customers: `/v0/api/customers?range=${enc([0, 10])}&sort=${enc(['name', 'ASC'])}`,
    sumup: `/v0/api/device-summary/sumup`,
  };
  const time = async (label: string) => {
    const out: string[] = [];
    for (const [name, url] of Object.entries(urls)) {
      const t0 = performance.now();
      await seeded.get(url);
      out.push(`${name} ${(performance.now() - t0).toFixed(1)} ms`);
    }
    console.log(label.padEnd(40), out.join(', '));
  };
  /** `times` flips of every observed device of the tenant, the first `agoMs` before now, `stepMs` apart; the last one stays open. */
  const flipEveryDevice = async (times: number, agoMs: number, stepMs: number) => {
    const first = sql`now() - ${`${agoMs} milliseconds`}::interval`;
    const step = sql`${`${stepMs} milliseconds`}::interval`;
    await seeded.database.db.execute(sql`
      with open as (
        update device_status_periods p set ended_at = ${first}
         where p.tenant_id = ${seeded.tenantId} and p.ended_at is null and p.status < 2 and p.started_at < ${first}
        returning p.device_id, p.portal_id, p.status)
      insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
      select ${seeded.tenantId}, o.device_id, o.portal_id, (o.status + i + 1) % 2, ${first} + i * ${step},
             case when i < ${times - 1} then ${first} + (i + 1) * ${step} end
        from open o cross join generate_series(0, ${times - 1}) i`);
  };
  const [{ n }] = await queryRows<{ n: number }>(
    seeded.database.db,
    sql`select count(*)::int as n from device_status_periods where tenant_id = ${seeded.tenantId} and started_at > now() - interval '2 hours'`,
  );
  console.log('periods of the main tenant begun in the last 2 hours', n);
  // Ten flips of every device of the tenant over the last 9 minutes, as heavy ingestion leaves them.
  await flipEveryDevice(10, 540_000, 50_000);
  await seeded.database.exec('analyze device_status_periods');
  const [{ m }] = await queryRows<{ m: number }>(
    seeded.database.db,
    sql`select count(*)::int as m from device_status_periods where tenant_id = ${seeded.tenantId} and started_at > now() - interval '2 hours'`,
  );
  console.log('after the flips', m);
  for (let i = 0; i < 3; i++) await time(`read ${i}`);
  for (let round = 0; round < 4; round++) {
    await sleep(1200);
    await time(`after 1.2 s`);
    // A flip back-dated by 60 s, as the offline sweep writes it.
    const [open] = await queryRows<{ id: number; device_id: number; portal_id: number; status: number }>(
      seeded.database.db,
      sql`select p.id, p.device_id, p.portal_id, p.status from device_status_periods p join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id
           where p.tenant_id = ${seeded.tenantId} and p.ended_at is null and p.status < 2 and d.removed_at is null and p.started_at < now() - interval '70 seconds'
           order by p.id limit 1`,
    );
    const at = new Date(Date.now() - 60_000).toISOString();
    await seeded.database.db.execute(
      sql`update device_status_periods set ended_at = ${at}::timestamptz where tenant_id = ${seeded.tenantId} and id = ${open.id}`,
    );
    await seeded.database.db.execute(
      sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at) values (${seeded.tenantId}, ${open.device_id}, ${open.portal_id}, ${1 - open.status}, ${at}::timestamptz)`,
    );
    await time(`after a flip back-dated by 60 s`);
    await time(`again`);
  }
  // What heavy ingestion since the newest mark costs the reads that follow (the periods it wrote start after the mark).
  for (let round = 0; round < 4; round++) {
    await sleep(1200);
    await time(`after 1.2 s`);
    await flipEveryDevice(2, 500, 200);
    await time(`after 10,000 periods written since`);
    await time(`again`);
  }
  await seeded.close();
}
await main();
