import { defineConfig } from 'vitest/config';

const pg = Boolean(process.env.TEST_DATABASE_URL);
const serverProject = (name: string, db: 'pglite' | 'postgres', groupOrder: number) => ({
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Fault tests cut connections, restart a database and stop servers: alone, in server-faults.
    exclude: ['**/node_modules/**', '**/*.fault.test.ts'],
    environment: 'node',
    // One migrated database per worker, shared by the files it runs (test/database.ts).
    isolate: false,
    pool: 'forks' as const,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/global-setup.ts'],
    env: { VIGIL_TEST_DB: db },
    sequence: { groupOrder },
  },
});

export default defineConfig({
  test: {
    projects: [
      // Groups run one after another (2 cores): contracts, web, server on PGlite, on PostgreSQL, faults, e2e.
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      serverProject('server', 'pglite', 2),
      ...(pg ? [serverProject('server-postgres', 'postgres', 3)] : []),
      // Database faults and shutdown, after the parallel groups and one file at a time (they time
      // outages and shutdowns; the PostgreSQL cases skip themselves on PGlite).
      {
        test: {
          ...serverProject('server-faults', pg ? 'postgres' : 'pglite', 4).test,
          include: ['test/**/*.fault.test.ts'],
          exclude: ['**/node_modules/**'],
          maxWorkers: 1,
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
      './apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['tests/**/*.e2e.ts'],
          environment: 'node',
          pool: 'forks' as const,
          maxWorkers: 1,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 5 },
        },
      },
    ],
  },
});
