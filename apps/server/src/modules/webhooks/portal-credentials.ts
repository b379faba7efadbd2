import type { KeyObject } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import * as repo from './ingest.repository.ts';
import { matchingKey, signingKeyObject, type SignedHeaders } from './signature.ts';

/**
 * The portal credentials webhook verification needs (tenant, decrypted secrets as HMAC keys),
 * kept per process so a busy portal costs neither a transaction nor a decryption per message.
 *
 * Nothing here is trusted on its own: the applying transaction re-checks, against the database,
 * that the portal and its tenant still exist and that the sealed secret which verified is still
 * current (or the previous one within its grace period) — see recordMessages. So the cache only
 * saves work; it never widens what is accepted. It is kept fresh where it matters:
 * - a signature that does not verify against cached secrets is tried again against freshly read
 *   ones (a rotation's new secret works at once);
 * - a message the transaction refused drops the portal's entry (`forget`), and the caller
 *   verifies once more against fresh credentials (a secret rotated out, a deleted portal);
 * - entries expire after CREDENTIALS_TTL_MS anyway, and concurrent misses of one portal share
 *   one read (a burst after expiry costs one transaction, not one per waiting message).
 */
export const CREDENTIALS_TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

interface Secret {
  enc: string;
  key: KeyObject;
  /** ms epoch after which this secret no longer verifies (the previous secret's grace period). */
  until?: number;
}

interface Credentials {
  tenantId: number;
  secrets: Secret[];
  loadedAt: number;
}

export interface VerifiedPortal {
  tenantId: number;
  /** The sealed secret that verified: recordMessages checks it is still valid at commit. */
  secretEnc: string;
  /** Verified against credentials read for this message (not from the cache). */
  fresh: boolean;
}

export class PortalCredentials {
  private readonly cache = new Map<number, Credentials>();
  private readonly loading = new Map<number, Promise<Credentials | undefined>>();

  /** `db`: where credentials are read (the ingestion's priority lane on PGlite, so reads do not queue ahead). */
  constructor(
    private readonly deps: AppDeps,
    private readonly db: Db = deps.database.db,
  ) {}

  /**
   * The portal when one of the header's signatures was made with one of its valid secrets; null
   * otherwise. `fresh`: skip the cache (a retry after the transaction refused a cached secret).
   */
  async verify(portalId: number, signed: SignedHeaders, raw: Buffer, fresh = false): Promise<VerifiedPortal | null> {
    const cached = fresh ? undefined : this.cache.get(portalId);
    if (cached && performance.now() - cached.loadedAt < CREDENTIALS_TTL_MS) {
      const hit = this.match(cached, signed, raw, false);
      if (hit) return hit;
    }
    // A retry after a refusal reads for itself: a read already under way may predate what refused it.
    const loaded = await (fresh ? this.read(portalId) : this.load(portalId));
    return loaded ? this.match(loaded, signed, raw, true) : null;
  }

  /** Drops what is cached for the portal (its transaction refused a secret the cache held as valid). */
  forget(portalId: number): void {
    this.cache.delete(portalId);
  }

  private match(credentials: Credentials, signed: SignedHeaders, raw: Buffer, fresh: boolean): VerifiedPortal | null {
    const now = this.deps.clock.now().getTime();
    const valid = credentials.secrets.filter((s) => s.until === undefined || s.until > now);
    const k = matchingKey(
      valid.map((s) => s.key),
      signed,
      raw,
    );
    return k < 0 ? null : { tenantId: credentials.tenantId, secretEnc: valid[k].enc, fresh };
  }

  /** One read per portal at a time: a message that misses while another read is under way waits for it. */
  private load(portalId: number): Promise<Credentials | undefined> {
    let pending = this.loading.get(portalId);
    if (!pending) {
      pending = this.read(portalId).finally(() => this.loading.delete(portalId));
      this.loading.set(portalId, pending);
    }
    return pending;
  }

  private async read(portalId: number): Promise<Credentials | undefined> {
    const portal = await inScope(this.db, allTenants, (tx) => repo.portalForWebhook(tx, portalId));
    if (!portal) {
      this.cache.delete(portalId);
      return undefined;
    }
    const secrets: Secret[] = [
      { enc: portal.webhook_secret_enc, key: signingKeyObject(this.deps.secretBox.open(portal.webhook_secret_enc)) },
    ];
    if (portal.previous_webhook_secret_enc && portal.previous_secret_expires_at) {
      const until = new Date(portal.previous_secret_expires_at).getTime();
      secrets.push({
        enc: portal.previous_webhook_secret_enc,
        key: signingKeyObject(this.deps.secretBox.open(portal.previous_webhook_secret_enc)),
        until,
      });
    }
    const credentials = { tenantId: Number(portal.tenant_id), secrets, loadedAt: performance.now() };
    // Unknown portals are never cached (random ids cannot grow the map); known ones up to a bound.
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(portalId, credentials);
    return credentials;
  }
}
