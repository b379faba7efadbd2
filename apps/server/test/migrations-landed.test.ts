import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A landed migration never changes: deployed databases ran it once and the migrator will not run it
 * again, so an edit reaches new databases only and the two drift apart. Every migration of the
 * drizzle journal has its sha256 recorded in migrations-landed.json (beside this test, so the
 * migrations folder holds only what drizzle-kit writes and the migrator reads); a change to a schema
 * goes in a new migration.
 *
 * Adding a migration: after `npm run db:generate`, record its checksum with
 *   UPDATE_MIGRATION_CHECKSUMS=1 npx vitest run --project server apps/server/test/migrations-landed.test.ts
 * which adds the journal's migrations that have no checksum yet and never rewrites a recorded one.
 *
 * 0005_kept_counts.sql and 0008_status_flips_hot.sql were edited after they landed (ee60969 and
 * 46f8b76, before this test existed); the list records their contents as of the commit that added
 * it, which is what counts as landed for them.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.resolve(here, '../src/db/migrations');
const checksumsFile = path.join(here, 'migrations-landed.json');
const shown = (file: string) => path.relative(path.resolve(here, '../../..'), path.join(migrationsDir, file));

const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
const journalFiles = journal.entries.map((entry) => `${entry.tag}.sql`);

/** The sha256 of a migration file, line endings read as \n (a Windows checkout is not a change). */
function sha256Of(file: string): string | undefined {
  const full = path.join(migrationsDir, file);
  return existsSync(full) ? createHash('sha256').update(readFileSync(full, 'utf8').replaceAll('\r\n', '\n')).digest('hex') : undefined;
}

const recorded: Record<string, string> = existsSync(checksumsFile)
  ? (JSON.parse(readFileSync(checksumsFile, 'utf8')) as Record<string, string>)
  : {};

if (process.env.UPDATE_MIGRATION_CHECKSUMS) {
  const missing = journalFiles.filter((file) => !(file in recorded) && sha256Of(file) !== undefined);
  for (const file of missing) recorded[file] = sha256Of(file)!;
  if (missing.length) writeFileSync(checksumsFile, `${JSON.stringify(recorded, null, 2)}\n`);
}

const HOW_TO_RECORD =
  'record it with UPDATE_MIGRATION_CHECKSUMS=1 npx vitest run --project server apps/server/test/migrations-landed.test.ts';

describe('landed migrations', () => {
  it('are unchanged and still in the journal', () => {
    const problems: string[] = [];
    for (const [file, sum] of Object.entries(recorded)) {
      const actual = sha256Of(file);
      if (actual === undefined) problems.push(`${shown(file)} was removed, but it has landed`);
      else if (actual !== sum)
        problems.push(`${shown(file)} changed after it landed (sha256 ${sum.slice(0, 12)}... is now ${actual.slice(0, 12)}...)`);
      if (!journalFiles.includes(file)) problems.push(`${shown(file)} is no longer in meta/_journal.json, but it has landed`);
    }
    expect(
      problems,
      'A landed migration has run on deployed databases and will not run again: restore it and put the change in a new migration',
    ).toEqual([]);
  });

  it('each have a recorded checksum', () => {
    const unrecorded = journalFiles.filter((file) => !(file in recorded)).map(shown);
    expect(unrecorded, `Migrations of the journal without a checksum in apps/server/test/migrations-landed.json: ${HOW_TO_RECORD}`).toEqual(
      [],
    );
  });
});
