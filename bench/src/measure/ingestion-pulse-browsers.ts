/**
 * Simulated browsers reloading the Pulse page in a loop (all its calls in parallel), as a process
 * of their own: `node --import tsx ingestion-pulse-browsers.ts <server url> <token> <browsers>`.
 * They stop when their standard input closes and print `{"reloads":n,"errors":n,"calls":{...}}` (counted
 * from the line "start" on standard input, so the warm-up is left out); `calls` holds each call's
 * median and slowest answer in ms, which says which of the page's reads wait longest under ingestion.
 *
 * Why a process: in the load generator's own event loop, 10 browsers' fetches and JSON parsing
 * starved autocannon, which then sent almost no webhooks (0-7 messages per second measured, 13 with
 * the browsers here, on the same CPU).
 */
import { createInterface } from 'node:readline';
import { getJson } from '../lib/auth.ts';
import { median } from '../lib/stats.ts';
import { PULSE_CALLS } from './dashboard.ts';

const [url, token, count] = process.argv.slice(2);
if (!url || !token) throw new Error('usage: ingestion-pulse-browsers.ts <server url> <token> [browsers]');

let stop = false;
let reloads = 0;
let errors = 0;
let times = new Map<string, number[]>();
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== 'start') return;
  reloads = 0;
  errors = 0;
  times = new Map();
});
input.on('close', () => {
  stop = true;
});

async function timed<T>(name: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const answer = await call();
  const list = times.get(name) ?? [];
  list.push(performance.now() - started);
  times.set(name, list);
  return answer;
}

/** Each call's median and slowest answer (ms). */
function callTimes(): Record<string, { p50: number; max: number }> {
  const out: Record<string, { p50: number; max: number }> = {};
  for (const [name, list] of times) out[name] = { p50: Math.round(median(list)), max: Math.round(Math.max(...list)) };
  return out;
}

async function browser(): Promise<void> {
  while (!stop) {
    try {
      await Promise.all(PULSE_CALLS.map(([name, path]) => timed(name, () => getJson(`${url}${path}`, token))));
      reloads++;
    } catch {
      errors++;
    }
  }
}

await Promise.all(Array.from({ length: Number(count ?? 10) }, browser));
process.stdout.write(`${JSON.stringify({ reloads, errors, calls: callTimes() })}\n`);
