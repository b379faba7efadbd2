import { LIMITS, PORTAL_MSG, type Portal, type PortalDetail, type PortalForm, type PortalSortField } from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { TOPICS, type PortalsChangedEvent } from '../../events/topics.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { newWebhookSecret } from '../../security/webhook-secret.ts';
import { keptBasesOf, readMarksOf, reliabilityByPortal, reliabilityWithRows } from '../stats/index.ts';
import * as repo from './portals.repository.ts';
import { toIso } from '../../db/sql-fragments.ts';

const DAY_MS = 86_400_000;
/** Reliability Score column window (docs/decisions.md 27): the last 30 days. */
const RELIABILITY_WINDOW_MS = 30 * DAY_MS;
/** How long a rotated-out secret keeps verifying, so the device cloud can switch without losing messages. */
export const PREVIOUS_SECRET_GRACE_MS = DAY_MS;
/** Subscription states that allow adding portals (docs/decisions.md 36). */
const PAYING_STATUSES = new Set(['trialing', 'active']);

export const webhookUrlOf = (deps: AppDeps, portalId: number) => `${deps.config.publicUrl}/v0/webhooks/portals/${portalId}`;

/** Shows only enough of the key to recognise it; short keys are not shown at all. */
export const maskApiKey = (key: string) => (key.length > 8 ? `••••${key.slice(-4)}` : '••••');

function present(deps: AppDeps, row: repo.PortalRow, reliability: Map<number, number>): Portal {
  return {
    id: row.id,
    customerId: row.id,
    name: row.name,
    customerName: row.name,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    webhookUrl: webhookUrlOf(deps, row.id),
    cameraCount: Number(row.camera_count),
    intercomCount: Number(row.intercom_count),
    accessCount: Number(row.access_count),
    alarmCount: Number(row.alarm_count),
    environmentalCount: Number(row.environmental_count),
    reliabilityScore: reliability.get(row.id) ?? -1,
    createdAt: toIso(row.created_at),
  };
}

/** The Reliability Score column's window, ending now. */
function scoreWindow(deps: AppDeps) {
  const to = deps.clock.now();
  return { from: new Date(to.getTime() - RELIABILITY_WINDOW_MS), to };
}

/** `read`: in a read's transaction (read-scope.ts), which may check the tenant's kept base as last read instead of reading it first. */
function reliabilityOf(deps: AppDeps, tx: Executor, scope: Scope, portalIds: number[], read = false) {
  return reliabilityByPortal(
    tx,
    { tenantId: scope.kind === 'tenant' ? scope.tenantId : undefined, portalIds, ...scoreWindow(deps) },
    readMarksOf(deps.database).kept,
    read ? keptBasesOf(deps.database) : undefined,
  );
}

/** Rows of a page (the tenant's list in its default order) and their scores, in one statement where the tenant's kept base allows. */
function pageWithReliability(deps: AppDeps, tx: Executor, tenantId: number, page: { dir: 'ASC' | 'DESC'; offset: number; limit: number }) {
  return reliabilityWithRows<repo.TenantPortalPageRow>(
    tx,
    { tenantId, ...scoreWindow(deps) },
    repo.tenantPortalsByNamePage(tenantId, page),
    readMarksOf(deps.database).kept,
    keptBasesOf(deps.database),
  );
}

/** Rows read first (the other orders, filters and scopes), then their scores. */
async function rowsThenReliability<R extends repo.PortalRow>(deps: AppDeps, tx: Executor, scope: Scope, rows: R[]) {
  const ids = rows.map((r) => r.id);
  return { rows, scores: await reliabilityOf(deps, tx, scope, ids, true) };
}

export interface PortalListInput {
  scope: Scope;
  q?: string;
  sort?: { field: PortalSortField; dir: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

export async function listPortals(deps: AppDeps, tx: Executor, input: PortalListInput): Promise<{ list: Portal[]; count: number }> {
  const filter = { scope: input.scope, q: input.q };
  const sort = input.sort ?? { field: 'name' as const, dir: 'ASC' as const };
  if (sort.field !== 'reliabilityScore') {
    const page = { offset: input.offset, limit: input.limit };
    const { rows, scores: reliability } =
      input.scope.kind === 'tenant' && !input.q && (sort.field === 'name' || sort.field === 'customerName')
        ? await pageWithReliability(deps, tx, input.scope.tenantId, { dir: sort.dir, ...page })
        : await rowsThenReliability(
            deps,
            tx,
            input.scope,
            await repo.listPortals(tx, { ...filter, sort: { field: sort.field, dir: sort.dir }, ...page }),
          );
    // A page past the end has no row to carry the count.
    const count = rows.length > 0 ? Number(rows[0].full_count) : await repo.countPortals(tx, filter);
    return { list: rows.map((r) => present(deps, r, reliability)), count };
  }
  const count = await repo.countPortals(tx, filter);
  // The score is computed, not stored: score every matching portal (one aggregate), sort, then read the page.
  const options = await repo.portalOptions(tx, filter);
  const reliability = await reliabilityOf(
    deps,
    tx,
    input.scope,
    options.map((o) => o.id),
    true,
  );
  const sign = sort.dir === 'ASC' ? 1 : -1;
  const ordered = options
    .map((o, nameOrder) => ({ id: o.id, score: reliability.get(o.id) ?? -1, nameOrder }))
    .sort((a, b) => sign * (a.score - b.score) || a.nameOrder - b.nameOrder);
  const pageIds = ordered.slice(input.offset, input.offset + input.limit).map((o) => o.id);
  const byId = new Map((await repo.portalsByIds(tx, input.scope, pageIds)).map((r) => [r.id, r]));
  const list = pageIds.flatMap((id) => (byId.has(id) ? [present(deps, byId.get(id)!, reliability)] : []));
  return { list, count };
}

export async function allPortalOptions(tx: Tx, scope: Scope) {
  const list = await repo.portalOptions(tx, { scope });
  return { list, count: list.length };
}

/** Header search; under the product's 2 characters it answers an empty list (the client clears its results then). */
export async function searchPortals(tx: Tx, scope: Scope, name: string | undefined) {
  const text = (name ?? '').trim();
  if (text.length < LIMITS.searchMinChars) return { list: [], count: 0 };
  const { rows, total } = await repo.searchPortals(tx, scope, text, LIMITS.searchMaxResults);
  return { list: rows, count: total };
}

/** The detail view; `canEdit` (Admin, Project Manager) sees the full key and the secret. */
export async function getPortal(deps: AppDeps, tx: Tx, scope: Scope, id: number, canEdit: boolean): Promise<PortalDetail> {
  const row = await repo.findPortal(tx, scope, id);
  if (!row) throw notFound();
  const reliability = await reliabilityOf(deps, tx, scope, [row.id]);
  const apiKey = deps.secretBox.open(row.api_key_enc);
  return {
    ...present(deps, row, reliability),
    apiKey: canEdit ? apiKey : maskApiKey(apiKey),
    webhookSecret: canEdit ? deps.secretBox.open(row.webhook_secret_enc) : null,
  };
}

/** Add Portal: allowed with a free tier, a free portal left, or a trial/active subscription; else 402. */
export async function createPortal(deps: AppDeps, tx: Tx, tenantId: number, form: PortalForm): Promise<number> {
  const tenant = await repo.lockTenantForNewPortal(tx, tenantId);
  if (!tenant) throw notFound();
  const allowed = tenant.freeTier || tenant.portalCount < tenant.freeCount || PAYING_STATUSES.has(tenant.subscriptionStatus);
  if (!allowed) throw new AppError('PAYMENT_REQUIRED', PORTAL_MSG.paymentRequired);
  const id = await repo.insertPortal(tx, {
    tenantId,
    name: form.name,
    apiKeyEnc: deps.secretBox.seal(form.apiKey),
    webhookSecretEnc: deps.secretBox.seal(newWebhookSecret()),
    now: deps.clock.now(),
  });
  // Delivered at commit: billing keeps the subscription quantity in step.
  await deps.bus.publish(TOPICS.portalsChanged, { tenantId } satisfies PortalsChangedEvent, tx);
  return id;
}

export async function updatePortal(deps: AppDeps, tx: Tx, scope: Scope, id: number, form: PortalForm): Promise<void> {
  const found = await repo.updatePortal(tx, scope, id, {
    name: form.name,
    apiKeyEnc: deps.secretBox.seal(form.apiKey),
    now: deps.clock.now(),
  });
  if (!found) throw notFound();
}

export async function rotateWebhookSecret(deps: AppDeps, tx: Tx, scope: Scope, id: number): Promise<void> {
  const now = deps.clock.now();
  const found = await repo.rotatePortalSecret(tx, scope, id, {
    webhookSecretEnc: deps.secretBox.seal(newWebhookSecret()),
    previousUntil: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
    now,
  });
  if (!found) throw notFound();
}
