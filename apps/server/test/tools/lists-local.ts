/**
 * Local list measurement (not a test, not the bench harness): the real app in this process on a copy
 * of the bench's seeded S data directory, or on PostgreSQL with LISTS_DATABASE_URL (a database the bench
 * seeded, e.g. with BENCH_REUSE_SEED=1 at L): seeded-app.ts. Each list is walked as the bench's "every page different"
 * variant does (up to 500 pages of 10 rows over the whole list, alternating ends), through `inject`:
 * once one request at a time (CPU and wall time per request: what a request costs), then with N
 * concurrent requests (p50/p99). CPU is this one process's (HTTP, JSON, zod, PGlite), so a change can
 * be judged on a machine shared with other work.
 *
 *   npx tsx apps/server/test/tools/lists-local.ts [portals|devices|cases|alerts ...]
 * Env: LISTS_SEED_DIR (default $TMPDIR/vigil-bench-pglite-S), LISTS_ROUNDS (walks of the pages, 2),
 * LISTS_CONNECTIONS (50), LISTS_DATABASE_URL, LISTS_PROFILE=dir (a CPU profile of the sequential walks).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pgliteTransactionOf } from '../../src/db/commands.ts';
import { scopeSettings, tenantScope } from '../../src/db/scope.ts';
import { defaultSeedDir, openSeededApp } from './seeded-app.ts';
import { threadCpu, threadCpuSince } from './thread-cpu.ts';

const LISTS: Record<string, string> = {
  portals: '/v0/api/customers',
  devices: '/v0/api/devices',
  cases: '/v0/api/case-stats',
  alerts: '/v0/api/alert-stats',
};

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const page = (offset: number) => `range=${enc([offset, 10])}`;

/** The bench's pages (bench/src/measure/lists.ts pagesOf). */
function pagesOf(base: string, count: number): string[] {
  const pages = Math.max(1, Math.min(500, Math.ceil(count / 10)));
  const step = Math.max(10, Math.floor(count / pages / 10) * 10);
  return Array.from({ length: pages }, (_, i) => `${base}?${page(((i % 2 ? pages - 1 - (i >> 1) : i >> 1) * step) % Math.max(count, 1))}`);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n: number) => n.toFixed(2);

/**
 * LISTS_TRACE=1: time every protocol exchange with PGlite's wasm (its synchronous part) and name its
 * statement. It patches PGlite in this thread: since the database runs on its own thread
 * (db/pglite-remote.ts) it sees only the EXPLAIN runs' statements; the line of each list gives the
 * database thread's CPU per request instead.
 */
interface Traced {
  kind: string;
  text: string;
  ms: number;
}
const traced: Traced[] = [];
async function traceWasm(): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const proto = PGlite.prototype as unknown as { execProtocolRawSync(message: Uint8Array): unknown };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with call(this, ...)
  const original = proto.execProtocolRawSync;
  proto.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
    // CPU time (this process): wall time is meaningless on a machine shared with other work.
    const c = process.cpuUsage();
    try {
      return original.call(this, message);
    } finally {
      const kind = String.fromCharCode(message[0]);
      // 'Q' simple query: the text follows the length; 'P' parse: name NUL text NUL.
      let text = '';
      if (kind === 'Q') text = Buffer.from(message.subarray(5, 5 + 120)).toString();
      else if (kind === 'P')
        text = Buffer.from(message.subarray(5, 5 + 2000))
          .toString()
          .replace(/\0/g, ' | ');
      const used = process.cpuUsage(c);
      traced.push({ kind, text: text.replace(/\s+/g, ' '), ms: (used.user + used.system) / 1000 });
    }
  };
}

async function main() {
  if (process.env.LISTS_TRACE || process.env.LISTS_EXPLAIN) await traceWasm();
  const wanted = process.argv.slice(2).filter((a) => a in LISTS);
  const names = wanted.length ? wanted : Object.keys(LISTS);
  const rounds = Number(process.env.LISTS_ROUNDS ?? 2);
  const connections = Number(process.env.LISTS_CONNECTIONS ?? 50);
  const databaseUrl = process.env.LISTS_DATABASE_URL;
  const seeded = await openSeededApp({ seedDir: process.env.LISTS_SEED_DIR ?? defaultSeedDir(), databaseUrl });
  const { deps } = seeded;
  const get = (url: string) => seeded.get(url);
  const session = process.env.LISTS_PROFILE ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
  }
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  for (const name of names) {
    const base = LISTS[name];
    const count = (JSON.parse((await get(`${base}?${page(0)}`)).body) as { data: { count: number } }).data.count;
    const pages = pagesOf(base, count);
    // Warm-up: every statement shape prepared once.
    for (const url of pages.slice(0, 20)) await get(url);
    if (process.env.LISTS_TRACE) {
      for (const url of [pages[0], pages[1], pages[2]]) {
        if (process.env.LISTS_EXPLAIN) {
          // Each statement shape of the walk (one example of its values): its plan, and its CPU per execution.
          traced.length = 0;
          for (const url of pages) await get(url);
          const examples = new Map<string, string>();
          for (const t of traced) {
            const m = /^ \| (execute (vigil_[0-9a-f]+).*?) \| /.exec(t.text);
            if (m) examples.set(m[2], m[1]);
          }
          await deps.database.db.transaction(async (tx) => {
            const raw = pgliteTransactionOf(tx)!;
            await raw.exec(`${scopeSettings(tenantScope(seeded.tenantId))}; set local plan_cache_mode = force_generic_plan`);
            for (const [, statement] of examples) {
              const plan = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${statement}`);
              const c = process.cpuUsage();
              const runs = 200;
              for (let i = 0; i < runs; i++) await raw.query(statement);
              const used = process.cpuUsage(c);
              console.log(`  ${statement.slice(0, 60)}: ${ms((used.user + used.system) / 1000 / runs)} ms CPU per execution`);
              if (process.env.LISTS_EXPLAIN === 'plans') console.log(plan.rows.map((r) => `      ${r['QUERY PLAN']}`).join('\n'));
            }
          });
        }
        traced.length = 0;
        await get(url);
        console.log(`  ${decodeURIComponent(url)}`);
        for (const t of traced) if (t.kind !== 'S') console.log(`    ${t.kind} ${ms(t.ms)} ms  ${t.text}`);
      }
    }
    if (process.env.LISTS_EXPLAIN) {
      // Each statement shape of the walk (one example of its values): its plan, and its CPU per execution.
      traced.length = 0;
      for (const url of pages) await get(url);
      const examples = new Map<string, string>();
      for (const t of traced) {
        const m = /^ \| (execute (vigil_[0-9a-f]+).*?) \| /.exec(t.text);
        if (m) examples.set(m[2], m[1]);
      }
      await deps.database.db.transaction(async (tx) => {
        const raw = pgliteTransactionOf(tx)!;
        await raw.exec(`${scopeSettings(tenantScope(seeded.tenantId))}; set local plan_cache_mode = force_generic_plan`);
        for (const [, statement] of examples) {
          const plan = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${statement}`);
          const c = process.cpuUsage();
          const runs = 200;
          for (let i = 0; i < runs; i++) await raw.query(statement);
          const used = process.cpuUsage(c);
          console.log(`  ${statement.slice(0, 60)}: ${ms((used.user + used.system) / 1000 / runs)} ms CPU per execution`);
          if (process.env.LISTS_EXPLAIN === 'plans') console.log(plan.rows.map((r) => `      ${r['QUERY PLAN']}`).join('\n'));
        }
      });
    }
    traced.length = 0;
    if (session) await session.post('Profiler.start');
    const walls: number[] = [];
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++)
      for (const url of pages) {
        const s = performance.now();
        await get(url);
        walls.push(performance.now() - s);
      }
    const elapsed = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const threads = threadCpuSince(threads0);
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(path.join(process.env.LISTS_PROFILE!, `${name}.cpuprofile`), JSON.stringify(profile));
    }
    walls.sort((a, b) => a - b);
    const n = walls.length;
    const wasm = traced.reduce((sum, t) => sum + t.ms, 0);
    if (process.env.LISTS_TRACE) {
      const byKind = new Map<string, number>();
      for (const t of traced) byKind.set(t.kind, (byKind.get(t.kind) ?? 0) + t.ms);
      const kinds = [...byKind].map(([k, v]) => `${k} ${ms(v / n)}`).join(', ');
      console.log(`  wasm CPU: ${ms(wasm / n)} ms/req in ${(traced.length / n).toFixed(1)} exchanges (${kinds})`);
    }
    // Concurrent: `connections` requests in flight, each taking the next page when it ends.
    const lat: number[] = [];
    let next = 0;
    const total = n;
    const c0 = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < total) {
          const url = pages[next++ % pages.length];
          const s = performance.now();
          await get(url);
          lat.push(performance.now() - s);
        }
      }),
    );
    const cElapsed = performance.now() - c0;
    lat.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(8)} ${count} rows, ${pages.length} pages x ${rounds}: sequential ${ms(elapsed / n)} ms/req wall, ` +
        `${ms((cpu.user + cpu.system) / 1000 / n)} ms/req CPU (database thread ${ms((threads.database * 1000) / n)}), p50 ${ms(pct(walls, 50))} p99 ${ms(pct(walls, 99))}; ` +
        `@${connections}: ${Math.round((total / cElapsed) * 1000)} req/s, p50 ${ms(pct(lat, 50))} p99 ${ms(pct(lat, 99))} ms`,
    );
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await seeded.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
