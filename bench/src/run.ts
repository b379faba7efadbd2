/**
 * `npm run bench [-- tiny|S|S1000|M|L|storm]`, or in bench/: `npx tsx src/run.ts --size tiny|S|S1000|M|L|storm [--only lists,ingestion,...]`
 *
 * Without --size: S on PGlite, then S1000 on PGlite (Pulse only: the main tenant's devices over 1,000
 * portals), then L on PostgreSQL when BENCH_DATABASE_URL is set. M (PGlite, maintenance under load only) runs
 * when asked by name (a throwaway
 * database: it is emptied), as does storm (PGlite, the notifications outage storm only: 100 portals of 10 devices). BENCH_SIZE=tiny (or --size tiny) is the CI smoke run: every
 * measurement at toy scale in a few seconds, so the harness cannot rot. BENCH_RUNS=3 repeats the whole
 * plan three times and prints each figure's median and spread (lib/runs.ts).
 *
 * Order per size: seed (server stopped) -> database phases (baselines straight into the tables;
 * PGlite is single-process, so only while the server is stopped) -> start the server as a child
 * process pinned to CPU 0 (this process on CPU 1) -> wait for the server's first job ticks and vacuum
 * (PostgreSQL: their start-up work must not fall into the first measurement) -> HTTP phases -> stop ->
 * table + JSON.
 *
 * BENCH_REUSE_SEED=1 (PostgreSQL only, for repeated runs while working on one thing): the first run
 * seeds as usual and records what it seeded in the temp directory; later runs with the flag on the
 * same BENCH_DATABASE_URL and size skip the reset and the seed (~150 s at L) and only migrate,
 * rebuild the rollup to now and vacuum. The data is then what the previous runs left (the server's
 * jobs resolve and open alerts; the ingestion phase adds devices and periods): compare such runs
 * with each other, not with a freshly seeded run. Without the flag every run reseeds. On PGlite the flag
 * keeps a copy of the seeded data directory (temp directory, vigil-bench-pglite-<size>) and later runs
 * start from a copy of it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../apps/server/src/db/client.ts';
import { migrateDatabase } from '../../apps/server/src/db/migrate.ts';
import { rollUpAllTenants } from '../../apps/server/src/modules/stats/index.ts';
import { tokenSigner } from './lib/auth.ts';
import type { BenchContext, DbMeasurement, HttpMeasurement } from './lib/context.ts';
import { cpuPlan, pinTo } from './lib/cpu.ts';
import { CpuSpeedProbe } from './lib/cpu-speed.ts';
import { monotonicMicros, summarizeProfiles, type ProfileWindow } from './lib/profile.ts';
import { markdownTable, Results, writeResults, type ResultRow } from './lib/results.ts';
import { markdownRuns, summarizeRuns } from './lib/runs.ts';
import { startBenchServer, waitForFirstJobTicks } from './lib/server.ts';
import { SIZES, type SizeSpec } from './lib/sizes.ts';
import { measureNaiveDashboard, measurePulseCalls } from './measure/dashboard.ts';
import { measureIngestionBaselines } from './measure/ingestion-baseline.ts';
import { measureIngestion, recordDeviceStatuses } from './measure/ingestion.ts';
import { measureLists } from './measure/lists.ts';
import { measureQueryPlans } from './measure/explain.ts';
import { measureHistory } from './measure/history.ts';
import { measureLiveEvents } from './measure/live-events.ts';
import { measureMaintenanceUnderLoad, prepareMaintenance } from './measure/maintenance.ts';
import { measureMemory } from './measure/memory.ts';
import { measureNotifications, smtpReceivers } from './measure/notifications.ts';
import { startSmtpReceiver, type SmtpReceiver } from './lib/notify-receivers.ts';
import { measureWebApp } from './measure/web.ts';
import { resetPostgres, seedDatabase, type SeededData } from './seed.ts';

/** A fixed secret: tokens and sealed portal secrets made here are valid for the server. */
const APP_SECRET = 'vigil-bench-app-secret-0123456789abcdefghijklmnop';

const DB_PHASES: [string, DbMeasurement][] = [
  ['dashboard', measureNaiveDashboard],
  ['ingestion', measureIngestionBaselines],
  ['ingestion', recordDeviceStatuses],
  ['explain', measureQueryPlans],
  ['maintenance', prepareMaintenance],
];
const HTTP_PHASES: [string, HttpMeasurement][] = [
  // First: the sweep's first ticks fall into it.
  ['maintenance', measureMaintenanceUnderLoad],
  ['dashboard', measurePulseCalls],
  ['lists', measureLists],
  ['history', measureHistory],
  // Before ingestion: its load inflates the heap and grows the main tenant's inventory.
  ['live-events', measureLiveEvents],
  ['ingestion', measureIngestion],
  ['web', measureWebApp],
  ['memory', measureMemory],
  // Last: its storms leave the main tenant's devices online and two channels behind.
  ['notifications', measureNotifications],
];
const ALL = [...new Set([...DB_PHASES, ...HTTP_PHASES].map(([name]) => name))];
/** Phases only the sizes that name them run (they change the data set the others measure). */
const ONLY_WHEN_NAMED = new Set(['maintenance']);

/** BENCH_REUSE_SEED: where the record of what was seeded into this database at this size is kept. */
function seedRecordFile(databaseUrl: string, size: SizeSpec): string {
  return path.join(
    tmpdir(),
    `vigil-bench-seed-${createHash('sha256').update(`${databaseUrl} ${size.name}`).digest('hex').slice(0, 16)}.json`,
  );
}

/** The recorded seed, if the database still holds it (same tenants and portals); else undefined. */
async function recordedSeed(database: Database, file: string): Promise<SeededData | undefined> {
  if (!existsSync(file)) return undefined;
  const seeded = JSON.parse(readFileSync(file, 'utf8')) as SeededData;
  try {
    const rows = (await database.db.execute(
      sql`select (select count(*)::int from tenants) as tenants, (select count(*)::int from portals) as portals`,
    )) as {
      rows: { tenants: number; portals: number }[];
    };
    const row = rows.rows[0];
    return row && row.tenants === seeded.rowCounts.tenants && row.portals === seeded.rowCounts.portals ? seeded : undefined;
  } catch {
    return undefined;
  }
}

type SpeedProbes = { server: CpuSpeedProbe; bench: CpuSpeedProbe };

async function benchSize(size: SizeSpec, databaseUrl: string | undefined, asked: Set<string>, probes: SpeedProbes): Promise<Results> {
  const only = new Set([...asked].filter((name) => (size.phases ? size.phases.includes(name) : !ONLY_WHEN_NAMED.has(name))));
  const kind = databaseUrl ? 'postgres' : 'pglite';
  console.log(`\n== Vigil bench: size ${size.name} on ${kind} ==`);
  const results = new Results(size.name !== 'tiny', probes);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-'));
  const cpus = cpuPlan();
  if (cpus.load !== undefined) pinTo(process.pid, cpus.load);
  // BENCH_REUSE_SEED on PGlite: a copy of the seeded, rolled-up and vacuumed data directory is kept in
  // the temp directory per size, and later runs start from a copy of it (M seeds in about 9 minutes).
  const seedCopy = !databaseUrl && process.env.BENCH_REUSE_SEED ? path.join(tmpdir(), `vigil-bench-pglite-${size.name}`) : undefined;
  let copied: SeededData | undefined;
  if (seedCopy && existsSync(path.join(seedCopy, 'seed.json'))) {
    cpSync(seedCopy, dataDir, { recursive: true });
    copied = JSON.parse(readFileSync(path.join(seedCopy, 'seed.json'), 'utf8')) as SeededData;
  }
  let database: Database | undefined = await openDatabase({ databaseUrl, dataDir });
  try {
    const recordFile = databaseUrl && process.env.BENCH_REUSE_SEED ? seedRecordFile(databaseUrl, size) : undefined;
    let seeded = copied ?? (recordFile ? await recordedSeed(database, recordFile) : undefined);
    if (seeded) {
      await migrateDatabase(database);
      console.log(`BENCH_REUSE_SEED: reusing the data seeded at ${seeded.now} (${seedCopy ?? recordFile})`);
    } else {
      if (databaseUrl) await resetPostgres(database);
      await migrateDatabase(database);
      seeded = await seedDatabase(database, size, APP_SECRET);
      console.log(`seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.rowCounts)}`);
      if (recordFile) writeFileSync(recordFile, JSON.stringify(seeded));
    }
    // Production has the uptime rollup built by its 5-minute job as history arrives; build it for the
    // seeded history now, so Pulse is measured as it runs in production (not before the first tick).
    const rollupStart = Date.now();
    await rollUpAllTenants(database, new Date());
    const rollupSeconds = (Date.now() - rollupStart) / 1000;
    console.log(`uptime rollup built in ${rollupSeconds.toFixed(1)} s`);
    // A running database has been vacuumed long before anyone looks at it (by autovacuum on PostgreSQL, by the
    // server's maintenance job on PGlite: jobs/pglite-maintenance.job.ts); freshly bulk-loaded
    // tables have no visibility map yet, so index-only scans would visit the heap for every row
    // (EXPLAIN at L: "Heap Fetches: 4099" in the company-wide reliability). Measure the steady state.
    const vacuumStart = Date.now();
    await database.exec('vacuum analyze');
    console.log(`vacuum analyze in ${((Date.now() - vacuumStart) / 1000).toFixed(1)} s`);
    if (seedCopy && !copied) {
      await database.close();
      rmSync(seedCopy, { recursive: true, force: true });
      cpSync(dataDir, seedCopy, { recursive: true });
      writeFileSync(path.join(seedCopy, 'seed.json'), JSON.stringify(seeded));
      console.log(`BENCH_REUSE_SEED: kept a copy of the seeded data directory in ${seedCopy}`);
      database = await openDatabase({ databaseUrl, dataDir });
    }
    const byPortals = [...seeded.tenants].sort((a, b) => b.portals.length - a.portals.length);
    const ctx: BenchContext = {
      size,
      kind,
      databaseUrl,
      seeded,
      main: byPortals[0],
      other: byPortals[1],
      sign: tokenSigner(APP_SECRET),
      results,
      shared: { seededRows: seeded.rowCounts, seedSeconds: seeded.seconds, rollupSeconds },
    };
    for (const [name, measure] of DB_PHASES) {
      if (!only.has(name)) continue;
      await results.beginPhase(`${name} (database)`, 'bench');
      try {
        await measure(ctx, database);
      } catch (err) {
        results.fail(`${name} (database phase)`, err);
      }
      results.endPhase(`${name} (database)`);
    }
    await database.close();
    database = undefined;

    // BENCH_CPU_PROF=1: profile the server over the HTTP phases (use with --only to profile one measurement).
    const cpuProfileDir = process.env.BENCH_CPU_PROF ? mkdtempSync(path.join(tmpdir(), 'vigil-bench-prof-')) : undefined;
    // The notifications phase: the server mails through a local SMTP receiver and may post to 127.0.0.1.
    const smtp: SmtpReceiver | undefined = only.has('notifications') ? await startSmtpReceiver() : undefined;
    if (smtp) smtpReceivers.set(ctx, smtp);
    const server = await startBenchServer({
      dataDir,
      databaseUrl,
      appSecret: APP_SECRET,
      cpu: cpus.server,
      cpuProfileDir,
      // The maintenance phase reads the maintenance job's steps from the log (info).
      logLevel: only.has('maintenance') ? 'info' : undefined,
      env: smtp ? { SMTP_URL: smtp.url, NOTIFY_ALLOW_PRIVATE_TARGETS: '1' } : undefined,
    });
    ctx.server = server;
    if (databaseUrl) {
      const waited = await waitForFirstJobTicks(databaseUrl, server.startedAt);
      console.log(`the server's first job ticks finished and the database was vacuumed ${waited.toFixed(1)} s after /healthz answered`);
    }
    ctx.shared.rssAfterStart = server.rss();
    // The stretches the profile counts: the HTTP phases themselves, not the server's start-up.
    const measured: ProfileWindow[] = [];
    try {
      for (const [name, measure] of HTTP_PHASES) {
        if (!only.has(name)) continue;
        console.log(`-- ${name}`);
        await results.beginPhase(name);
        const from = monotonicMicros();
        try {
          await measure(ctx, server);
        } catch (err) {
          results.fail(name, err);
        }
        measured.push({ from, to: monotonicMicros() });
        results.endPhase(name);
      }
    } finally {
      await server.stop();
      await smtp?.close();
      if (server.logBytes() > 0) console.log(`server log (warnings and errors): ${server.logFile}`);
    }
    if (cpuProfileDir) {
      const summary = summarizeProfiles(cpuProfileDir, measured);
      ctx.shared.cpuProfile = { dir: cpuProfileDir, ...summary };
      console.log(`server CPU profile (${cpuProfileDir}), the measured phases only, share of busy time:`);
      console.log(`  threads (busy CPU s): ${summary.threads.map((t) => `${t.file} ${t.busySeconds}`).join(', ')}`);
      console.log(
        `  by part: ${Object.entries(summary.parts)
          .map(([k, v]) => `${k} ${v}%`)
          .join(', ')}`,
      );
      console.log(
        `  by kind: ${Object.entries(summary.categories)
          .map(([k, v]) => `${k} ${v}%`)
          .join(', ')}`,
      );
      console.log(summary.hot.map((h) => `  ${h.share}%  ${h.frame}`).join('\n'));
    }
    const file = writeResults(`${size.name}-${kind}`, {
      size: size.name,
      database: kind,
      at: new Date().toISOString(),
      machine: { cpus: (await import('node:os')).availableParallelism(), node: process.version, pinned: cpus },
      seeded: { rowCounts: seeded.rowCounts, seconds: seeded.seconds, rollupSeconds },
      rows: results.rows,
      phases: results.phases,
      cpuProfile: ctx.shared.cpuProfile,
      queryPlans: ctx.shared.queryPlans,
      failures: results.failures,
    });
    console.log(`\n${markdownTable(results.rows)}\n`);
    if (results.failures.length) console.log(`failures:\n${results.failures.map((f) => `  ${f.measurement}: ${f.error}`).join('\n')}`);
    console.log(`results written to ${path.relative(process.cwd(), file)}`);
    return results;
  } finally {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // From the root, npm swallows `--size` (`npm run bench -- --size tiny` reaches us as `tiny`), so a
  // bare size name is accepted too, as is BENCH_SIZE.
  const { values, positionals } = parseArgs({ options: { size: { type: 'string' }, only: { type: 'string' } }, allowPositionals: true });
  const sizeName = values.size ?? positionals[0] ?? process.env.BENCH_SIZE;
  const only = new Set(values.only ? values.only.split(',') : ALL);
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const plan: [SizeSpec, string | undefined][] = [];
  if (sizeName) {
    const size = SIZES[sizeName as SizeSpec['name']];
    if (!size) throw new Error(`unknown size ${sizeName}: tiny, S, S1000, M, L or storm`);
    // L is the PostgreSQL size; tiny, S and S1000 run on PGlite (tiny also on PostgreSQL if asked).
    if (size.name === 'L' && !pgUrl) throw new Error('size L runs on PostgreSQL: set BENCH_DATABASE_URL (a throwaway database)');
    plan.push([size, size.name === 'L' || process.env.BENCH_TINY_ON_POSTGRES ? pgUrl : undefined]);
  } else {
    plan.push([SIZES.S, undefined], [SIZES.S1000, undefined]);
    if (pgUrl) plan.push([SIZES.L, pgUrl]);
  }
  // BENCH_RUNS=3: that many whole runs of the plan, one after another, then each size's figures as
  // medians with their spread and the targets judged on the runs (lib/runs.ts).
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1) || 1);
  let failures = 0;
  const rowsOf = new Map<string, ResultRow[][]>();
  // How fast the cores ran during each figure (lib/cpu-speed.ts): the server's, and this process's for the database phases.
  const pinned = cpuPlan();
  const server = await CpuSpeedProbe.start(pinned.server, "the server's CPU");
  const probes: SpeedProbes = {
    server,
    bench: pinned.load === undefined ? server : await CpuSpeedProbe.start(pinned.load, "the bench's CPU"),
  };
  try {
    for (let run = 1; run <= runs; run++) {
      if (runs > 1) console.log(`\n==== whole run ${run} of ${runs} ====`);
      for (const [size, url] of plan) {
        const results = await benchSize(size, url, only, probes);
        failures += results.failures.length;
        const key = `${size.name}-${url ? 'postgres' : 'pglite'}`;
        rowsOf.set(key, [...(rowsOf.get(key) ?? []), results.rows]);
      }
    }
  } finally {
    probes.server.stop();
    probes.bench.stop();
  }
  if (runs > 1) {
    for (const [key, perRun] of rowsOf) {
      const summary = summarizeRuns(perRun);
      const file = writeResults(`${key}-runs`, { runs: perRun.length, at: new Date().toISOString(), rows: summary });
      console.log(`\n== ${key}: ${perRun.length} whole runs ==\n${markdownRuns(summary, perRun.length)}\n`);
      console.log(`summary written to ${path.relative(process.cwd(), file)}`);
    }
  }
  // The smoke run fails when a measurement could not run at all (targets missed do not fail it).
  process.exit(failures > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
