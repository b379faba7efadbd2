import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIVE_EVENTS_STREAM_PATH } from '@vigil/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_DRAIN_MS } from '../src/server.ts';
import { freePort } from './kits/free-port.ts';

/**
 * SIGTERM on a real server process (src/main.ts, as `npm start` runs it) under load: it stops
 * accepting connections at once, answers the requests it had started, ends the live-event streams
 * cleanly, and exits 0 within the drain bound (server.ts SHUTDOWN_DRAIN_MS). On the embedded
 * database, so it runs everywhere; the stop sequence is the same on PostgreSQL.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EMAIL = 'root@shutdown.example.com';
const PASSWORD = 'Shutdown-Pass-2026!';

interface Proc {
  child: ChildProcess;
  port: number;
  url: string;
  output: string[];
  exited: Promise<{ code: number | null; at: number }>;
  dataDir: string;
}

async function startProcess(): Promise<Proc> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-shutdown-'));
  const output: string[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_SECRET: 'shutdown-secret-shutdown-secret-shutdown-1',
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    SUPERADMIN_EMAIL: EMAIL,
    SUPERADMIN_PASSWORD: PASSWORD,
    RATE_LIMIT_PER_MINUTE: '0',
  };
  delete env.DATABASE_URL;
  // As scripts/start.mjs runs it: node with tsx as a loader (tsx's CLI would SIGKILL a busy server).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => output.push(String(c)));
  child.stderr.on('data', (c) => output.push(String(c)));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, port, url, output, exited, dataDir };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output.join('')}`);
}

interface Answer {
  status?: number;
  body?: string;
  error?: string;
}

/** A sign-in over its own connection whose body is sent in two halves, the second when `finish` is called. */
function slowRequest(port: number): { sent: Promise<void>; finish(): void; answer: Promise<Answer> } {
  const body = JSON.stringify({ email: EMAIL, password: PASSWORD }).padEnd(2000, ' ');
  let finish!: () => void;
  let sent!: () => void;
  const sentP = new Promise<void>((r) => (sent = r));
  const answer = new Promise<Answer>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v0/auth/login',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', (err) => resolve({ error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ error: err.message }));
    req.write(body.slice(0, 1000), () => setTimeout(sent, 100));
    finish = () => req.end(body.slice(1000));
  });
  return { sent: sentP, finish: () => finish(), answer };
}

/** A raw SSE stream: its bytes and whether it ended cleanly (last chunk) or was cut. */
function openStream(port: number, ticket: string): Promise<{ text: () => string; ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`,
        agent: false,
        headers: { accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        // 'end' when the stream ended cleanly, else what cut it.
        const ended = new Promise<string>((done) => {
          res.on('end', () => done('end'));
          res.on('error', (err) => done(err.message));
          res.on('aborted', () => done('aborted'));
        });
        res.on('data', (c) => (text += c));
        resolve({ text: () => text, ended });
      },
    );
    req.on('error', reject);
  });
}

/** The fields these tests read from an answer. */
interface ApiAnswer {
  data?: { accessToken?: string; ticket?: string; status?: string };
  error?: { code: string };
}

async function api(
  url: string,
  method: string,
  pathname: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: ApiAnswer }> {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as ApiAnswer };
}

const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

let proc: Proc | undefined;
afterEach(() => {
  if (proc?.child.exitCode === null) proc.child.kill('SIGKILL');
  if (proc) rmSync(proc.dataDir, { recursive: true, force: true });
  proc = undefined;
});

describe('shutdown on SIGTERM', () => {
  it('refuses new connections at once, answers in-flight requests, ends live streams and exits 0', async () => {
    proc = await startProcess();
    const { url, port } = proc;
    const login = await api(url, 'POST', '/v0/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    expect(login.status).toBe(200);
    const token = String(login.json.data?.accessToken);
    const ticket = await api(url, 'POST', '/v0/api/live-events/ticket', token, {});
    expect(ticket.status).toBe(200);
    const stream = await openStream(port, String(ticket.json.data?.ticket));

    // Load: loops of reads on keep-alive connections; each answer or failure is recorded with its times.
    const log: { start: number; end: number; status?: number; error?: string }[] = [];
    let running = true;
    const loops = Array.from({ length: 6 }, async () => {
      while (running) {
        const start = Date.now();
        try {
          const res = await fetch(`${url}/v0/api/tenants`, { headers: { authorization: `Bearer ${token}` } });
          await res.text();
          log.push({ start, end: Date.now(), status: res.status });
        } catch (err) {
          log.push({ start, end: Date.now(), error: (err as Error).message });
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });
    // Requests the server has begun (headers in, body half sent) when SIGTERM comes.
    const inFlight = Array.from({ length: 5 }, () => slowRequest(port));
    await Promise.all(inFlight.map((r) => r.sent));
    await new Promise((r) => setTimeout(r, 500));

    const sigterm = Date.now();
    proc.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    const refused = await connectionRefused(port);
    await new Promise((r) => setTimeout(r, 250));
    inFlight.forEach((r) => r.finish());
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    const ended = await stream.ended;
    const exit = await proc.exited;
    running = false;
    await Promise.all(loops);

    const after = log.filter((x) => x.start >= sigterm);
    const before = log.filter((x) => x.start < sigterm);
    const tally = (xs: typeof log) =>
      xs.reduce<Record<string, number>>((m, x) => ((m[x.status ?? 'no answer'] = (m[x.status ?? 'no answer'] ?? 0) + 1), m), {});
    console.info(
      `shutdown: exit ${exit.code} after ${exit.at - sigterm} ms; new connection 150 ms after SIGTERM refused: ${refused}; in-flight answers ${answers.map((a) => a.status ?? a.error).join(',')}; ` +
        `load before SIGTERM ${JSON.stringify(tally(before))}, started after ${JSON.stringify(tally(after))}; stream ${ended}`,
    );
    expect(refused).toBe(true);
    for (const a of answers) {
      expect(a.error).toBeUndefined();
      expect(a.status).toBeLessThan(500);
      expect((): unknown => JSON.parse(a.body ?? '')).not.toThrow();
    }
    // Every request begun before SIGTERM was answered in full; none of the load got a 5xx other than 503.
    expect(before.filter((x) => x.status === undefined && x.end - x.start > 0 && x.start < sigterm - 100)).toEqual([]);
    expect(log.filter((x) => x.status !== undefined && x.status >= 500 && x.status !== 503)).toEqual([]);
    expect(ended).toBe('end');
    expect(stream.text()).toMatch(/^retry: \d+/m);
    expect(exit.code).toBe(0);
    expect(exit.at - sigterm).toBeLessThan(SHUTDOWN_DRAIN_MS);
  }, 150_000);

  it(`closes requests still unfinished after ${SHUTDOWN_DRAIN_MS / 1000} s and exits 0`, async () => {
    proc = await startProcess();
    const stuck = slowRequest(proc.port);
    await stuck.sent;
    const sigterm = Date.now();
    proc.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const ready = await fetch(`${proc.url}/readyz`).then(
      (r) => r.status,
      () => 'refused',
    );
    const answer = await stuck.answer;
    const exit = await proc.exited;
    console.info(
      `stuck request: readyz after SIGTERM ${ready}; cut after ${exit.at - sigterm} ms (${answer.error ?? answer.status}); exit ${exit.code}`,
    );
    expect(ready === 'refused' || ready === 503).toBe(true);
    expect(answer.status).toBeUndefined();
    expect(exit.code).toBe(0);
    expect(exit.at - sigterm).toBeGreaterThanOrEqual(SHUTDOWN_DRAIN_MS - 100);
    expect(exit.at - sigterm).toBeLessThan(SHUTDOWN_DRAIN_MS + 3_000);
  }, 150_000);
});
