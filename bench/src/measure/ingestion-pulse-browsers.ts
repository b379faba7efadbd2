/**
 * Simulated browsers reloading the Pulse page in a loop (all its calls in parallel), as a process
 * of their own: `node --import tsx ingestion-pulse-browsers.ts <server url> <token> <browsers>`.
 * They stop when their standard input closes and print `{"reloads":n,"errors":n}` (counted from
 * the line "start" on standard input, so the warm-up is left out).
 *
 * Why a process: in the load generator's own event loop, 10 browsers' fetches and JSON parsing
 * starved autocannon, which then sent almost no webhooks (0-7 messages per second measured, 13 with
 * the browsers here, on the same CPU).
 */
import { createInterface } from 'node:readline';
import { getJson } from '../lib/auth.ts';
import { PULSE_CALLS } from './dashboard.ts';

const [url, token, count] = process.argv.slice(2);
if (!url || !token) throw new Error('usage: ingestion-pulse-browsers.ts <server url> <token> [browsers]');

let stop = false;
let reloads = 0;
let errors = 0;
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== 'start') return;
  reloads = 0;
  errors = 0;
});
input.on('close', () => {
  stop = true;
});

async function browser(): Promise<void> {
  while (!stop) {
    try {
      await Promise.all(PULSE_CALLS.map(([, path]) => getJson(`${url}${path}`, token)));
      reloads++;
    } catch {
      errors++;
    }
  }
}

await Promise.all(Array.from({ length: Number(count ?? 10) }, browser));
process.stdout.write(`${JSON.stringify({ reloads, errors })}\n`);
