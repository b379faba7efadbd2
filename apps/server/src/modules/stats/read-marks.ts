import type { Database } from '../../db/client.ts';
import type { HourMark } from './hour-mark.repository.ts';
import type { KeptMark } from './kept-mark.repository.ts';
import { readAnchor, type MarkAnchor, type MarkCheck, type MarkRead, type NextMark } from './mark.repository.ts';
import { LIVE_MS } from './trend-cache.ts';

/**
 * What every mark has (mark.repository.ts MarkCheck): the instant its sums start from (`base`, ms), the
 * instant it was read at (`at`, ms), the end of the read that walked from the base (`root`, ms), whose
 * sums it carries on, how many periods the statement that read it walked, and its check.
 */
export type Mark = MarkCheck;

/**
 * Marks kept per tenant in this process (docs/uptime-rollup.md "Marks of the current hour"): sums of
 * the periods from a base instant up to a recent one, so that a read walks only the periods since.
 * The two newest for the tenant's current base, newest first; the older one answers when a removal
 * dated between the two has spoiled the newer (a period written since is added to a mark's sums:
 * mark.repository.ts markPatch). A mark is checked against the database by the
 * statement that uses it, so keeping one that no longer stands costs a statement, never a wrong answer.
 */
export interface Marks<M extends Mark> {
  /** The tenant's marks from `base` usable up to instant `to` (read at or before it), newest first. */
  usable(tenantId: number, base: Date, to: Date): M[];
  keep(tenantId: number, mark: M): void;
  /** Forgets a mark that no longer stands. */
  drop(tenantId: number, mark: M): void;
  /** Whether a mark read at `at` from `base` would be newer than the newest kept by at least `step` ms. */
  wants(tenantId: number, base: Date, at: Date, step: number): boolean;
  /** Fewer periods than this walked from the base, and marks are not worth their checks (readWithMarks). */
  readonly minWalk: number;
  /** Marks of the tenant from `base` are not asked for before instant `until` (ms). */
  rest(tenantId: number, base: Date, until: number): void;
  resting(tenantId: number, base: Date, at: Date): boolean;
  /** The anchors of the marks read last (mark.repository.ts MarkAnchor), newest first, whichever tenant's. */
  anchors(): MarkAnchor[];
  anchor(anchor: MarkAnchor): void;
}

/** Tenants kept (the oldest dropped first): an hour's mark is a few hundred bytes. */
const MAX_TENANTS = 10_000;
const KEPT = 2;
/**
 * Anchors kept: a read's bound is the newest whose transaction is older than every one in flight, so
 * a few seconds of them ride out a transaction that runs a while (one a mark read, about one a second).
 */
const ANCHORS = 8;

/**
 * Below this many periods walked from the base a read costs milliseconds, less than checking a mark
 * and reading the next: where the tenant's periods change little, marks are left for a line's time.
 */
export const MARK_MIN_WALK = 10_000;

export function createMarks<M extends Mark>(opts: { minWalk?: number; maxTenants?: number } = {}): Marks<M> {
  const maxTenants = opts.maxTenants ?? MAX_TENANTS;
  const byTenant = new Map<number, M[]>();
  const rests = new Map<number, { base: number; until: number }>();
  let anchors: MarkAnchor[] = [];
  const current = (tenantId: number, base: Date) => (byTenant.get(tenantId) ?? []).filter((m) => m.base === base.getTime());
  return {
    usable: (tenantId, base, to) => current(tenantId, base).filter((m) => m.at <= to.getTime()),
    keep(tenantId, mark) {
      const marks = (byTenant.get(tenantId) ?? []).filter((m) => m.base === mark.base && m.at < mark.at);
      byTenant.delete(tenantId);
      if (byTenant.size >= maxTenants) byTenant.delete(byTenant.keys().next().value!);
      byTenant.set(tenantId, [mark, ...marks].slice(0, KEPT));
    },
    drop(tenantId, mark) {
      const marks = byTenant.get(tenantId);
      if (marks)
        byTenant.set(
          tenantId,
          marks.filter((m) => m !== mark),
        );
    },
    minWalk: opts.minWalk ?? MARK_MIN_WALK,
    rest(tenantId, base, until) {
      rests.delete(tenantId);
      if (rests.size >= maxTenants) rests.delete(rests.keys().next().value!);
      rests.set(tenantId, { base: base.getTime(), until });
    },
    resting(tenantId, base, at) {
      const rest = rests.get(tenantId);
      return !!rest && rest.base === base.getTime() && at.getTime() < rest.until;
    },
    anchors: () => anchors,
    anchor(anchor) {
      anchors = [anchor, ...anchors].slice(0, ANCHORS);
    },
    wants(tenantId, base, at, step) {
      const newest = current(tenantId, base)[0];
      return at.getTime() > base.getTime() && (!newest || at.getTime() - newest.at >= step);
    },
  };
}

/**
 * How far behind a read's end a new mark is read: a report is dated when it was sent and committed a
 * moment later, and each one committed after the mark but dated before it is a period the next read
 * patches the mark with (mark.repository.ts markPatch). Under ingestion with Pulse open, messages
 * answer within about a second (docs/performance.md).
 */
export const MARK_LAG_MS = 3_000;
/** A new mark at least this much newer than the newest kept, so that a stream of reads does not read one each. */
export const MARK_STEP_MS = 1_000;
/**
 * How long a line of marks, each read from the one before, is carried on before a read walks from the
 * base again. A mark sees what the app's writers change (mark.repository.ts), not a period edited by
 * hand; this bounds how long such an edit goes unseen, as the company trend's live today does (LIVE_MS).
 */
export const MARK_LINE_MS = LIVE_MS;

/** What a read from a mark gives: whether the mark stood (else `value` means nothing), the next mark, the value. */
export interface MarkedRead<M extends Mark, T> {
  stands: boolean;
  next?: MarkRead<M>;
  value: T;
}

/**
 * Runs `read` from the newest of the tenant's marks that stands (the older one when the newer no longer
 * does; from the base itself when none does), asking it for a new mark when one is due, and keeps that;
 * where the read from the base walked few periods, none for a line's time (`minWalk`). A new mark's
 * anchor is kept whether the mark is or not; a mark without an id bound is not (mark.repository.ts).
 * `read(mark, next)`: one statement that checks `mark`, reads from it (or from the base when undefined)
 * and, with `next`, reads the mark at its instant.
 */
export async function readWithMarks<M extends Mark, T>(
  marks: Marks<M>,
  tenantId: number,
  base: Date,
  to: Date,
  read: (mark: M | undefined, next: NextMark | undefined) => Promise<MarkedRead<M, T>>,
): Promise<T> {
  if (marks.resting(tenantId, base, to)) return (await read(undefined, undefined)).value;
  const nextAt = new Date(to.getTime() - MARK_LAG_MS);
  const wanted = () => (marks.wants(tenantId, base, nextAt, MARK_STEP_MS) ? { at: nextAt, anchors: marks.anchors() } : undefined);
  // The anchor whatever becomes of the mark: a later read's bound may come from it.
  const keep = (next: MarkRead<M>, root: number, mark = true) => {
    const { xid, fromId, ...rest } = next;
    if (xid !== null) marks.anchor({ lastId: next.lastId, xid });
    if (mark && fromId !== null) marks.keep(tenantId, { ...rest, fromId, root } as unknown as M);
  };
  const asked = wanted();
  for (const mark of marks.usable(tenantId, base, to)) {
    if (to.getTime() - mark.root > MARK_LINE_MS) {
      marks.drop(tenantId, mark);
      continue;
    }
    const got = await read(mark, asked && asked.at.getTime() > mark.at ? asked : undefined);
    if (got.stands) {
      if (got.next) keep(got.next, mark.root);
      return got.value;
    }
    marks.drop(tenantId, mark);
  }
  // Asked again: the marks just dropped may have been newer than a step.
  const got = await read(undefined, wanted());
  if (got.next) {
    const few = got.next.walked < marks.minWalk;
    keep(got.next, to.getTime(), !few);
    if (few) marks.rest(tenantId, base, to.getTime() + MARK_LINE_MS);
  }
  return got.value;
}

/**
 * The marks of one app's database: the current hour's (tenant score, company trend) and, on PGlite, the
 * kept windows' heads (portal scores). On PostgreSQL a page of the Customers list reads its scores in
 * one statement with its rows from the kept base as last read (kept-bases.ts), which marks would split.
 */
export interface ReadMarks {
  hour: Marks<HourMark>;
  kept?: Marks<KeptMark>;
}

const byDatabase = new WeakMap<Database, ReadMarks>();
/** Tenants whose kept-window marks are kept (the oldest dropped first): 1,000 portals make a mark of about 100 KB. */
const KEPT_MARK_TENANTS = 500;

/**
 * The marks kept for `database` (mark.repository.ts: exact on both, through their snapshots on
 * PostgreSQL). A new process's stores get an anchor read at once: without one, the first read of each
 * tenant's hour keeps no mark on PostgreSQL, and walks the hour again a second later.
 */
export function readMarksOf(database: Database): ReadMarks {
  let marks = byDatabase.get(database);
  if (marks) return marks;
  // A kept window's mark holds a row per portal (a few hundred bytes each): fewer tenants are kept than of the hour's.
  const made: ReadMarks = {
    hour: createMarks<HourMark>(),
    kept: database.kind === 'pglite' ? createMarks<KeptMark>({ maxTenants: KEPT_MARK_TENANTS }) : undefined,
  };
  byDatabase.set(database, (marks = made));
  // Not awaited: a read before it answers walks the hour, as one after it would without a bound.
  readAnchor(database.db).then(
    (anchor) => [made.hour, made.kept].forEach((m) => m?.anchor(anchor)),
    () => undefined,
  );
  return marks;
}
