import type { Database } from '../../db/client.ts';

/** A tenant's kept window as its state row names it (kept_window_state): the base a portal score is read from. */
export interface KeptBase {
  from: Date;
  to: Date;
  /**
   * Periods with a higher id that start before `to` were not in the base (back-dated). Read for all
   * tenants, the lowest of their marks (ids are one sequence across tenants).
   */
  mark: number;
}

/**
 * Each tenant's kept base as last read, in this process (docs/uptime-rollup.md "The kept base of a
 * read"): a read of a page's scores checks it in its own statement instead of reading it first, one
 * round trip fewer. A base that no longer stands (the job kept a newer window) costs that statement
 * and is read again, never a wrong answer.
 */
export interface KeptBases {
  get(tenantId: number): KeptBase | undefined;
  keep(tenantId: number, base: KeptBase): void;
  drop(tenantId: number): void;
}

/** Tenants kept (the oldest dropped first): a base is three values. */
const MAX_TENANTS = 10_000;

export function createKeptBases(maxTenants = MAX_TENANTS): KeptBases {
  const byTenant = new Map<number, KeptBase>();
  return {
    get: (tenantId) => byTenant.get(tenantId),
    keep(tenantId, base) {
      byTenant.delete(tenantId);
      if (byTenant.size >= maxTenants) byTenant.delete(byTenant.keys().next().value!);
      byTenant.set(tenantId, base);
    },
    drop: (tenantId) => void byTenant.delete(tenantId),
  };
}

const byDatabase = new WeakMap<Database, KeptBases>();

/** The kept bases of `database`'s tenants; used where no marks are kept (PostgreSQL: read-marks.ts readMarksOf). */
export function keptBasesOf(database: Database): KeptBases {
  let bases = byDatabase.get(database);
  if (!bases) byDatabase.set(database, (bases = createKeptBases()));
  return bases;
}
