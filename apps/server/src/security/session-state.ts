import type { Database } from '../db/client.ts';
import { allTenants, inScope } from '../db/scope.ts';
import type { Clock } from '../lib/clock.ts';
import type { Principal } from '../http/permissions.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.ts';
import { readSessionState } from './session-state.repository.ts';

/**
 * Whether an access token's session still stands (docs/auth.md "When access ends"): its user is
 * active, its session version (`sv`) is the user's current one and its session (`sid`, the refresh
 * family) was not revoked. Asked on every authenticated request, so it answers from a per-process
 * cache, a map lookup: an entry lives at most `SESSION_STATE_TTL_MS` and is dropped at once when
 * the bus announces a revocation of that user (events/topics.ts `sessionsRevoked`, wired in
 * deps.ts); the TTL is the safety net for an announcement missed (a dropped LISTEN connection).
 */
export interface SessionState {
  /** `true`/`false` from the cache; a promise when the user's state had to be read. */
  isCurrent(p: Pick<Principal, 'userId' | 'sv' | 'sid'>): boolean | Promise<boolean>;
  /** Drops the cached state of a user (a revocation was announced). */
  forget(userId: number): void;
}

/** Longest a cached state is used: with the bus down, access still ends within this time. */
export const SESSION_STATE_TTL_MS = 3_000;
/** Users whose state is kept (oldest read out first). */
const MAX_USERS = 10_000;
/** Revoked sessions older than an access token's life (and a minute of clock slack) have no live tokens left. */
const REVOKED_WINDOW_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 60_000;

interface Entry {
  version: number;
  active: boolean;
  revoked: ReadonlySet<string>;
  /** performance.now() after which the entry is read again. */
  until: number;
}

const NO_USER: Entry = { version: -1, active: false, revoked: new Set(), until: 0 };

const stands = (e: Entry, p: Pick<Principal, 'userId' | 'sv' | 'sid'>) =>
  e.active && (p.sv ?? 0) === e.version && (p.sid === undefined || !e.revoked.has(p.sid));

export function createSessionState(database: Database, clock: Clock, now: () => number = () => performance.now()): SessionState {
  const entries = new Map<number, Entry>();
  /** Reads in flight, one per user: a read started before a revocation was announced is not kept. */
  const reading = new Map<number, Promise<Entry>>();

  const read = (userId: number): Promise<Entry> => {
    const pending = reading.get(userId);
    if (pending) return pending;
    const started = now();
    let run: Promise<Entry> | undefined = undefined;
    run = (async () => {
      const since = new Date(clock.now().getTime() - REVOKED_WINDOW_MS);
      const stored = await inScope(database.db, allTenants, (tx) => readSessionState(tx, userId, since));
      const entry: Entry = stored
        ? {
            version: stored.version,
            active: stored.active,
            revoked: new Set(stored.revokedSessions),
            until: started + SESSION_STATE_TTL_MS,
          }
        : { ...NO_USER, until: started + SESSION_STATE_TTL_MS };
      if (reading.get(userId) === run) {
        reading.delete(userId);
        entries.delete(userId);
        if (entries.size >= MAX_USERS) entries.delete(entries.keys().next().value!);
        entries.set(userId, entry);
      }
      return entry;
    })();
    reading.set(userId, run);
    // A failed read is not kept either: the next request reads again.
    run.catch(() => {
      if (reading.get(userId) === run) reading.delete(userId);
    });
    return run;
  };

  return {
    isCurrent(p) {
      const known = entries.get(p.userId);
      if (known && known.until > now()) return stands(known, p);
      return read(p.userId).then((e) => stands(e, p));
    },
    forget(userId) {
      entries.delete(userId);
      reading.delete(userId);
    },
  };
}
