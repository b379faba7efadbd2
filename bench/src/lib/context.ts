import type { Database } from '../../../apps/server/src/db/client.ts';
import type { SeededData, SeededTenant } from '../seed.ts';
import type { TokenSigner } from './auth.ts';
import type { Results } from './results.ts';
import type { BenchServer } from './server.ts';
import type { SizeSpec } from './sizes.ts';

/** What every measurement gets: the data set, the server (once started), tokens and the results. */
export interface BenchContext {
  size: SizeSpec;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: the bench database, which measurements may also read while the server runs. */
  databaseUrl?: string;
  seeded: SeededData;
  /** The tenant with the most portals (L: the 1,000-portal tenant). */
  main: SeededTenant;
  /** Another tenant: for cross-tenant checks and for baselines that must not disturb `main`. */
  other: SeededTenant;
  sign: TokenSigner;
  results: Results;
  /** Set during the HTTP phases. */
  server?: BenchServer;
  /** Figures a later measurement compares against (e.g. ingestion baselines, naive answers). */
  shared: Record<string, unknown>;
}

/** A measurement that talks to the database directly (PGlite: only while the server is stopped). */
export type DbMeasurement = (ctx: BenchContext, database: Database) => Promise<void>;
/** A measurement through the running server's HTTP API. */
export type HttpMeasurement = (ctx: BenchContext, server: BenchServer) => Promise<void>;
