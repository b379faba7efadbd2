/**
 * Creates the superAdmin or resets its password, on the database the server uses
 * (DATABASE_URL, or the PGlite files under DATA_DIR: stop the server first, PGlite
 * admits one process). Usage: npm run superadmin -- --email a@b.c --password '...'
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { SuperAdminError, ensureSuperAdmin, isCommonPassword } from '../modules/auth/index.ts';

const USAGE = "Usage: npm run superadmin -- --email admin@example.com --password 'a long password'";

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.email || !args.password) {
    console.error(`Both --email and --password are required.\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateDatabase(database);
    const outcome = await ensureSuperAdmin(database, { email: args.email, password: args.password }, new Date());
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
    const what =
      outcome === 'created' ? 'created' : outcome === 'updated' ? 'updated (password set, account active)' : 'already up to date';
    console.log(`superAdmin ${args.email.trim().toLowerCase()} ${what} on ${where}.`);
    if (isCommonPassword(args.password)) console.warn('Warning: this is a very common password; choose a better one.');
    return 0;
  } catch (err) {
    if (err instanceof SuperAdminError) {
      console.error(`superAdmin not saved: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('superadmin command failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
