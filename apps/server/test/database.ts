import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Database } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

/**
 * One migrated database per test worker, shared by the files that worker runs
 * (vitest runs server tests with isolate:false); each file resets the data.
 * VIGIL_TEST_DB=postgres runs the same tests on a database created from TEST_DATABASE_URL.
 */
let shared: Promise<Database> | undefined;

export const usesPostgres = () => process.env.VIGIL_TEST_DB === 'postgres';

export function workerDatabaseUrl(): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('VIGIL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const url = new URL(base);
  // The pid keeps names unique per worker process (pool ids repeat across vitest project groups).
  url.pathname = `/${url.pathname.slice(1)}_w${process.env.VITEST_POOL_ID ?? '0'}_${process.pid}`;
  return url.toString();
}

async function createWorkerDatabase(): Promise<string> {
  const url = workerDatabaseUrl();
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  return url;
}

export function sharedDatabase(): Promise<Database> {
  shared ??= (async () => {
    const database = usesPostgres()
      ? await openDatabase({ databaseUrl: await createWorkerDatabase() })
      : await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
    return database;
  })();
  return shared;
}

/** Empties every table (ids restart), so a test file starts from nothing. */
export async function resetDatabase(database: Database): Promise<void> {
  const rows = await queryRows<{ tablename: string }>(database.db, sql`select tablename from pg_tables where schemaname = 'public'`);
  const tables = rows.map((r) => `"${r.tablename}"`);
  if (tables.length) await database.exec(`truncate ${tables.join(', ')} restart identity cascade`);
}
