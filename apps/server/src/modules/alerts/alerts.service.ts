import { type Alert, ALERT_MSG, ALERT_TYPE, type Case } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { EventBus } from '../../events/bus.ts';
import { TOPICS, type AlertOpenedEvent } from '../../events/topics.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { openCase } from '../cases/index.ts';
import { caseCreationAnswer, visiblePortal } from '../cases/index.ts';
import { countLicensesInWindow, openLicenseRenewalAlerts } from './license-alert-rule.repository.ts';
import {
  ackAlert,
  alertOwner,
  findAlert,
  holdDevices,
  insertAlert,
  offlineDeviceIds,
  openOfflineAlertOf,
  unheldDeviceIds,
} from './alerts.repository.ts';
import { lockAlertRules } from './offline-alert-rule.repository.ts';

/** What the routes serve as the repository answers it. */
export { listAlertDevices, listAlerts } from './alerts.repository.ts';

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export async function getAlert(tx: Tx, scope: Scope, id: number, now: Date): Promise<Alert> {
  const alert = await findAlert(tx, scope, id, now);
  if (!alert) throw notFound();
  return alert;
}

/**
 * Add Alert by hand (docs/alerts.md). Type 0 adds the portal's offline devices that no open alert
 * holds to the portal's open Device Offline alert, opening one when none is open, and answers that
 * alert (`offlineCount` = all it holds); 422 when the portal has no offline device, creating nothing.
 * Type 1 opens the renewal alerts the daily scan would open for this portal's licenses now and answers
 * the soonest-ending one; 400 when no license is in the window, 409 when each already has one.
 */
export async function createAlertByHand(
  tx: Tx,
  scope: Scope,
  bus: EventBus,
  input: { portalId: number; alertType: number; now: Date },
): Promise<Alert> {
  const portal = await visiblePortal(tx, scope, input.portalId);
  if (input.alertType === ALERT_TYPE.deviceOffline) {
    // The rule job (offline-alert-rule.repository.ts) takes the same lock: never two open alerts for a portal.
    await lockAlertRules(tx);
    const offline = await offlineDeviceIds(tx, portal.tenantId, portal.id);
    if (offline.length === 0) throw new AppError('UNPROCESSABLE', ALERT_MSG.noOfflineDevices);
    const unheld = await unheldDeviceIds(tx, portal.tenantId, offline);
    const open = await openOfflineAlertOf(tx, portal.tenantId, portal.id);
    const alertId =
      open ??
      (await insertAlert(tx, bus, {
        tenantId: portal.tenantId,
        portalId: portal.id,
        customerName: portal.name,
        alertType: ALERT_TYPE.deviceOffline,
        offlineCount: unheld.length,
        now: input.now,
      }));
    await holdDevices(tx, portal.tenantId, alertId, unheld);
    const alert = await getAlert(tx, scope, alertId, input.now);
    if (open !== undefined && unheld.length > 0) {
      const joined: AlertOpenedEvent = {
        tenantId: portal.tenantId,
        alertId,
        portalId: portal.id,
        customerName: portal.name,
        alertType: ALERT_TYPE.deviceOffline,
        offlineCount: alert.offlineCount,
      };
      await bus.publish(TOPICS.alertJoined, joined, tx);
    }
    return alert;
  }
  const opened = await openLicenseRenewalAlerts(tx, bus, input.now, { tenantId: portal.tenantId, portalId: portal.id });
  if (opened.length === 0) {
    const inWindow = await countLicensesInWindow(tx, input.now, portal.tenantId, portal.id);
    throw inWindow === 0 ? badRequest(ALERT_MSG.noLicenseDue) : conflict(ALERT_MSG.licenseAlertsOpen);
  }
  return getAlert(tx, scope, opened[0], input.now);
}

/**
 * Acknowledge (docs/alerts.md): an open alert takes the time, the user and the user's name; acknowledging
 * again answers the alert with its first acknowledgment; a resolved alert nobody acknowledged is 409.
 */
export async function acknowledgeAlert(
  tx: Tx,
  scope: Scope,
  input: { alertId: number; userId: number; userName: string; now: Date },
): Promise<Alert> {
  const alert = await getAlert(tx, scope, input.alertId, input.now);
  if (alert.ackedAt !== null) return alert;
  if (alert.resolvedAt !== null) throw conflict(ALERT_MSG.ackResolved);
  if (!(await ackAlert(tx, scope, input.alertId, input, input.now))) {
    // Acknowledged or resolved in between: answer what it is now.
    const current = await getAlert(tx, scope, input.alertId, input.now);
    if (current.ackedAt === null) throw conflict(ALERT_MSG.ackResolved);
    return current;
  }
  return getAlert(tx, scope, input.alertId, input.now);
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
