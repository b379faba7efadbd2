import { parseArgs } from 'node:util';
import { percentile, runLoad } from '../simulator/index.ts';

/**
 * npm run simulate -- --url http://127.0.0.1:3000 --portal 12 --secret whsec_... --devices 500 --rate 100 [--batch 100] [--duration 60] [--concurrency 16]
 * Drives one portal's webhook on any Vigil instance with signed device reports; stops when the duration ends.
 */
const USAGE =
  'usage: npm run simulate -- --url <base url> --portal <id> --secret <whsec_...> --devices <n> --rate <reports/s> [--batch <devices/message>] [--duration <s>] [--concurrency <n>]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInt(name: string, text: string | undefined, fallback?: number): number {
  if (text === undefined) {
    if (fallback === undefined) fail(`--${name} is required`);
    return fallback;
  }
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer`);
  return n;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        portal: { type: 'string' },
        secret: { type: 'string' },
        devices: { type: 'string' },
        rate: { type: 'string' },
        batch: { type: 'string' },
        duration: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.url || !/^https?:\/\//.test(values.url)) fail('--url must be an http(s) URL');
  if (!values.secret?.startsWith('whsec_')) fail('--secret must be the portal webhook secret (whsec_...)');
  const opts = {
    url: values.url,
    secret: values.secret,
    portalId: positiveInt('portal', values.portal),
    devices: positiveInt('devices', values.devices),
    rate: positiveInt('rate', values.rate),
    batch: Math.min(5000, positiveInt('batch', values.batch, 100)),
    durationSec: positiveInt('duration', values.duration, 60),
    concurrency: positiveInt('concurrency', values.concurrency, 16),
  };
  const abort = new AbortController();
  process.on('SIGINT', () => abort.abort());
  console.log(
    `simulating ${opts.devices} devices on portal ${opts.portalId} at ${opts.rate} reports/s in batches of ${opts.batch} for ${opts.durationSec} s`,
  );
  const result = await runLoad({
    ...opts,
    signal: abort.signal,
    onProgress: (s, sec) =>
      console.log(
        `${sec.toFixed(0)} s: sent ${s.sent}, accepted ${s.accepted} (${s.devicesAccepted} reports), errors ${s.errors}, p50 ${percentile(s, 50).toFixed(1)} ms, p99 ${percentile(s, 99).toFixed(1)} ms`,
      ),
  });
  console.log(
    `done in ${result.elapsedSec.toFixed(1)} s: ${result.sent} messages, ${result.accepted} accepted, ${result.errors} errors, ` +
      `${(result.devicesAccepted / result.elapsedSec).toFixed(0)} reports/s, p50 ${percentile(result, 50).toFixed(1)} ms, p95 ${percentile(result, 95).toFixed(1)} ms, p99 ${percentile(result, 99).toFixed(1)} ms, statuses ${JSON.stringify(result.statuses)}`,
  );
  if (result.errors > 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error('simulate failed:', err);
  process.exit(1);
});
