/**
 * Marks of a list kept in this process per tenant (the devices' name marks, modules/devices/name-marks.ts;
 * the cases' and alerts' id marks, id-marks.ts): read once with a version that changes whenever they
 * may have, and used by a page only while its own statement reads the same version, so no page is ever
 * older than its request and several processes on one PostgreSQL keep their own marks safely
 * (docs/decisions.md 50). This holds them: one read of a tenant's marks at a time, at most one every
 * `MARKS_READ_EVERY_MS`, and a bound on the tenants kept.
 */

/** Bound on the tenants kept: cleared when reached (marks cost one read to get back). */
const KEPT_MAX = 10_000;

/**
 * At most one read of a tenant's marks per this many milliseconds: while its list keeps changing
 * (devices reporting for the first time, alerts opening one after another), each read would be out of
 * date at the next page, and deep pages are read without marks as before instead of paying a read each.
 */
export const MARKS_READ_EVERY_MS = 5_000;

/** One tenant's marks as read: `version` (a bigint as text: compared, never computed) and the marks themselves. */
export interface VersionedMarks {
  version: string;
}

/** The marks of one list of one app's database (ids and versions are a database's own). */
export class TenantMarkStore<M extends VersionedMarks> {
  private readonly kept = new Map<number, M>();
  private readonly reading = new Set<number>();
  /** When each tenant's marks were last read (ms), for MARKS_READ_EVERY_MS. */
  private readonly readAt = new Map<number, number>();

  /** `usable`: whether marks as read are worth keeping (enough of them to start a page from). */
  constructor(
    private readonly now: () => number,
    private readonly usable: (marks: M) => boolean,
  ) {}

  /** The tenant's kept marks, if any. */
  protected marksOf(tenantId: number): M | undefined {
    return this.kept.get(tenantId);
  }

  /** Forgets a tenant's marks read at `version`, which a page found out of date. */
  drop(tenantId: number, version: string): void {
    if (this.kept.get(tenantId)?.version === version) this.kept.delete(tenantId);
  }

  /**
   * Reads the tenant's marks with `read` when a read is due (none kept, none under way and none
   * lately) and keeps what it read (nothing when it failed or found too few marks to use); answers
   * whether it read. One read of a tenant's marks at a time: a failed read ends the claim too.
   */
  async readIfDue(tenantId: number, read: () => Promise<M | undefined>): Promise<boolean> {
    if (!this.claimRead(tenantId)) return false;
    let marks: M | undefined;
    try {
      marks = await read();
    } finally {
      this.keep(tenantId, marks);
    }
    return true;
  }

  private claimRead(tenantId: number): boolean {
    if (this.kept.has(tenantId) || this.reading.has(tenantId)) return false;
    const now = this.now();
    const last = this.readAt.get(tenantId);
    if (last !== undefined && now - last >= 0 && now - last < MARKS_READ_EVERY_MS) return false;
    if (this.readAt.size >= KEPT_MAX) this.readAt.clear();
    this.readAt.set(tenantId, now);
    this.reading.add(tenantId);
    return true;
  }

  private keep(tenantId: number, marks: M | undefined): void {
    this.reading.delete(tenantId);
    if (!marks || !this.usable(marks)) return;
    if (this.kept.size >= KEPT_MAX) this.kept.clear();
    this.kept.set(tenantId, marks);
  }
}
