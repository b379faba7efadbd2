import pg from 'pg';

/** After a PostgreSQL run, drop the per-worker databases the harness created. */
export default function setup() {
  return async function teardown() {
    if (!process.env.TEST_DATABASE_URL) return;
    const base = new URL(process.env.TEST_DATABASE_URL).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${base}\\_w%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.end();
  };
}
