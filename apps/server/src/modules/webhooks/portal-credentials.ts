import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import * as repo from './ingest.repository.ts';
import { matchingKey, signingKey, type SignedHeaders } from './signature.ts';

/**
 * The portal credentials webhook verification needs, kept per process for a few seconds so a
 * busy portal does not cost a transaction (and a decryption) per message.
 *
 * Nothing here is trusted on its own: the applying transaction re-checks, against the database,
 * that the portal and its tenant still exist and that the sealed secret which verified is still
 * current (or the previous one within its grace period) — see recordMessages. A signature that
 * does not verify against cached secrets is tried again against freshly read ones, so a rotation
 * takes effect at once. The cache only saves work; it never widens what is accepted.
 */
export const CREDENTIALS_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Secret {
  enc: string;
  key: Buffer;
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
}

export class PortalCredentials {
  private readonly cache = new Map<number, Credentials>();

  constructor(private readonly deps: AppDeps) {}

  /** The portal when one of the header's signatures was made with one of its valid secrets; null otherwise. */
  async verify(portalId: number, signed: SignedHeaders, raw: Buffer): Promise<VerifiedPortal | null> {
    const cached = this.cache.get(portalId);
    if (cached && performance.now() - cached.loadedAt < CREDENTIALS_TTL_MS) {
      const hit = this.match(cached, signed, raw);
      if (hit) return hit;
    }
    const fresh = await this.load(portalId);
    return fresh ? this.match(fresh, signed, raw) : null;
  }

  private match(credentials: Credentials, signed: SignedHeaders, raw: Buffer): VerifiedPortal | null {
    const now = this.deps.clock.now().getTime();
    const valid = credentials.secrets.filter((s) => s.until === undefined || s.until > now);
    const k = matchingKey(
      valid.map((s) => s.key),
      signed,
      raw,
    );
    return k < 0 ? null : { tenantId: credentials.tenantId, secretEnc: valid[k]!.enc };
  }

  private async load(portalId: number): Promise<Credentials | undefined> {
    const portal = await inScope(this.deps.database.db, allTenants, (tx) => repo.portalForWebhook(tx, portalId));
    if (!portal) {
      this.cache.delete(portalId);
      return undefined;
    }
    const secrets: Secret[] = [{ enc: portal.webhook_secret_enc, key: signingKey(this.deps.secretBox.open(portal.webhook_secret_enc)) }];
    if (portal.previous_webhook_secret_enc && portal.previous_secret_expires_at) {
      const until = new Date(portal.previous_secret_expires_at).getTime();
      secrets.push({ enc: portal.previous_webhook_secret_enc, key: signingKey(this.deps.secretBox.open(portal.previous_webhook_secret_enc)), until });
    }
    const credentials = { tenantId: Number(portal.tenant_id), secrets, loadedAt: performance.now() };
    // Unknown portals are never cached (random ids cannot grow the map); known ones up to a bound.
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(portalId, credentials);
    return credentials;
  }
}
