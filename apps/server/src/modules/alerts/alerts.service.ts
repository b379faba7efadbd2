import { type Alert, ALERT_MSG, ALERT_TYPE, type Case } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { EventBus } from '../../events/bus.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { openCase } from '../cases/index.ts';
import { caseCreationAnswer, visiblePortal } from '../cases/index.ts';
import { countLicensesInWindow, openLicenseRenewalAlerts } from './license-alert-rule.repository.ts';
import { alertOwner, findAlert, holdDevices, insertAlert, offlineDeviceIds } from './alerts.repository.ts';

/** What the routes serve as the repository answers it. */
export { listAlertDevices, listAlerts } from './alerts.repository.ts';

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export async function getAlert(tx: Tx, scope: Scope, id: number, now: Date): Promise<Alert> {
  const alert = await findAlert(tx, scope, id, now);
  if (!alert) throw notFound();
  return alert;
}

/**
 * Add Alert by hand. Type 0 holds all of the portal's currently offline devices
 * (possibly none: the next rule tick then resolves it). Type 1 opens the renewal
 * alerts the daily scan would open for this portal's licenses now and answers the
 * soonest-ending one; 400 when no license is in the window, 409 when each already has one.
 */
export async function createAlertByHand(
  tx: Tx,
  scope: Scope,
  bus: EventBus,
  input: { portalId: number; alertType: number; now: Date },
): Promise<Alert> {
  const portal = await visiblePortal(tx, scope, input.portalId);
  if (input.alertType === ALERT_TYPE.deviceOffline) {
    const deviceIds = await offlineDeviceIds(tx, portal.tenantId, portal.id);
    const alertId = await insertAlert(tx, bus, {
      tenantId: portal.tenantId,
      portalId: portal.id,
      customerName: portal.name,
      alertType: ALERT_TYPE.deviceOffline,
      offlineCount: deviceIds.length,
      now: input.now,
    });
    await holdDevices(tx, portal.tenantId, alertId, deviceIds);
    return getAlert(tx, scope, alertId, input.now);
  }
  const opened = await openLicenseRenewalAlerts(tx, bus, input.now, { tenantId: portal.tenantId, portalId: portal.id });
  if (opened.length === 0) {
    const inWindow = await countLicensesInWindow(tx, input.now, portal.tenantId, portal.id);
    throw inWindow === 0 ? badRequest(ALERT_MSG.noLicenseDue) : conflict(ALERT_MSG.licenseAlertsOpen);
  }
  return getAlert(tx, scope, opened[0], input.now);
}

/** Create New Case from an alert: its devices that are offline and not in an open case. */
export async function createCaseFromAlert(
  run: Run,
  scope: Scope,
  input: { alertId: number; userId: number; now: Date },
): Promise<Case | { error: true; msg: string }> {
  const owner = await run((tx) => alertOwner(tx, scope, input.alertId));
  if (!owner) throw notFound();
  const result = await openCase(run, {
    tenantId: owner.tenantId,
    portalId: owner.portalId,
    alertId: input.alertId,
    createdBy: input.userId,
    now: input.now,
  });
  return caseCreationAnswer(run, scope, result);
}
