/** What other modules and jobs may use of alerts: the offline and license renewal alert rules. */
export { applyOfflineAlertRules } from './offline-alert-rule.repository.ts';
export { openLicenseRenewalAlerts, resolveLicenseAlerts, type RenewalTarget } from './license-alert-rule.repository.ts';
