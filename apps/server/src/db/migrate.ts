import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';
import { applySecurity } from './security.ts';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Arbitrary constant: serializes migrations when several processes start on one PostgreSQL database. */
const MIGRATION_LOCK = 727_001;

/** Applies the generated SQL migrations, then the row-level security pass. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder });
    await applySecurity(database);
    return;
  }
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  await database.exec(`select pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await migrate(database.db as never, { migrationsFolder });
    await applySecurity(database);
  } finally {
    await database.exec(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}
