import { CASE_COMPLETED, CASE_MSG, type Case } from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { openCase, type CaseOpeningResult } from './case-opening.repository.ts';
import { findCase, findVisiblePortal, lockCaseType, releaseCaseDevices, setCaseType, touchCaseType } from './cases.repository.ts';

/** What the routes serve as the repository answers it. */
export { countCompletedThisQuarter, countOpenCasesByType, listCaseDevices, listCases } from './cases.repository.ts';

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** The portal as the caller may see it (not deleted), or 404. */
export async function visiblePortal(tx: Executor, scope: Scope, portalId: number): Promise<{ tenantId: number; id: number; name: string }> {
  const portal = await findVisiblePortal(tx, scope, portalId);
  if (!portal) throw notFound();
  return portal;
}

export async function getCase(tx: Tx, scope: Scope, id: number): Promise<Case> {
  const found = await findCase(tx, scope, id);
  if (!found) throw notFound();
  return found;
}

/** The answer of a case creation: the case, or the product's `{error, msg}` when nothing was left to hold. */
export async function caseCreationAnswer(run: Run, scope: Scope, result: CaseOpeningResult): Promise<Case | { error: true; msg: string }> {
  if (!result.opened) return { error: true, msg: result.msg };
  return run((tx) => getCase(tx, scope, result.caseId));
}

export async function createCaseForPortal(
  run: Run,
  scope: Scope,
  input: { portalId: number; bodyCustomerId?: number; userId: number; now: Date },
): Promise<Case | { error: true; msg: string }> {
  if (input.bodyCustomerId !== undefined && input.bodyCustomerId !== input.portalId) throw badRequest(CASE_MSG.customerMismatch);
  const portal = await run((tx) => visiblePortal(tx, scope, input.portalId));
  const result = await openCase(run, { tenantId: portal.tenantId, portalId: portal.id, createdBy: input.userId, now: input.now });
  return caseCreationAnswer(run, scope, result);
}

/**
 * Sets the status. Reaching Completed (4) stamps completed_at and releases the
 * devices; leaving Completed clears completed_at but does not re-capture devices
 * (they may already be in a newer case).
 */
export async function changeCaseType(run: Run, scope: Scope, id: number, caseType: number, now: Date): Promise<Case> {
  return run(async (tx) => {
    const current = await lockCaseType(tx, scope, id);
    if (!current) throw notFound();
    const completing = caseType === CASE_COMPLETED && current.caseType !== CASE_COMPLETED;
    const reopening = caseType !== CASE_COMPLETED && current.caseType === CASE_COMPLETED;
    if (completing) {
      await setCaseType(tx, current.tenantId, id, caseType, now, now);
      await releaseCaseDevices(tx, current.tenantId, id, now);
    } else if (reopening) {
      await setCaseType(tx, current.tenantId, id, caseType, null, now);
    } else {
      await touchCaseType(tx, current.tenantId, id, caseType, now);
    }
    return getCase(tx, scope, id);
  });
}
