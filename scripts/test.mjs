#!/usr/bin/env node
// The whole test suite, as the README says: type checks, lint (Prettier and ESLint), web build, then every vitest
// project (contracts, server on PGlite, server on PostgreSQL when TEST_DATABASE_URL
// is set, web components, end-to-end in Chromium against the built app).
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync } from 'node:fs';

const run = (cmd, args, opts = {}) => {
  const res = spawnSync(cmd, args, { stdio: 'inherit', shell: false, ...opts });
  return res.status ?? 1;
};
const started = Date.now();
const extra = process.argv.slice(2);

if (run('npm', ['run', '--silent', 'typecheck']) !== 0) {
  console.error('Type check failed.');
  process.exit(1);
}
if (run('npm', ['run', '--silent', 'lint']) !== 0) {
  console.error('Lint failed: `npm run format` rewrites the formatting; fix the ESLint errors listed above (docs/linting.md).');
  process.exit(1);
}
if (run('npm', ['run', '--silent', 'build']) !== 0) {
  console.error('Web build failed.');
  process.exit(1);
}
mkdirSync('.artifacts', { recursive: true });
const report = '.artifacts/vitest-report.json';
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\nSuite finished in ${seconds} s.`);
  // The plain closing line CI reads.
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
} catch {
  console.error('No test report was written.');
}
process.exit(status);
