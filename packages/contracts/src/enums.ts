/** Role values exactly as the product writes them (docs/decisions.md 37). */
export const ROLES = ['superAdmin', 'Admin', 'Project Manager', 'Salesman'] as const;
export type Role = (typeof ROLES)[number];
/** Selectable in user forms: every role except the first (docs/decisions.md 37). */
export const SELECTABLE_ROLES = ROLES.slice(1) as Exclude<Role, 'superAdmin'>[];

/** Device type codes (docs/product.md "Codes and states"). */
export const DEVICE_TYPES = ['Camera', 'Intercom', 'Access Control', 'Alarm', 'Environmental'] as const;
export const DEVICE_COUNT_KEYS = ['cameraCount', 'intercomCount', 'accessCount', 'alarmCount', 'environmentalCount'] as const;

/** Case status display codes 0..4 (docs/product.md "Codes and states"). */
export const CASE_STATUSES = ['New', 'In Progress', 'Awaiting Delivery', 'Requires Testing', 'Completed'] as const;
export const CASE_STATUS = { new: 0, inProgress: 1, awaitingDelivery: 2, requiresTesting: 3, completed: 4 } as const;
export type CaseStatus = (typeof CASE_STATUS)[keyof typeof CASE_STATUS];
export const CASE_COMPLETED = CASE_STATUS.completed;
export const caseStatusLabel = (code: number): string => CASE_STATUSES[code] ?? 'Unknown';

/** Alert type codes (docs/product.md "Codes and states"). */
export const ALERT_TYPES = ['Device Offline', 'License Renewal Pending (90 Days)'] as const;
export const ALERT_TYPE = { deviceOffline: 0, licenseRenewal: 1 } as const;
export type AlertType = (typeof ALERT_TYPE)[keyof typeof ALERT_TYPE];
/** Alert status: 0 ok (resolved), 1 warning (open), 2 error (open > 24 h or critical). */
export const ALERT_STATUSES = ['ok', 'warning', 'error'] as const;
export const ALERT_STATUS = { ok: 0, warning: 1, error: 2 } as const;
export type AlertStatus = (typeof ALERT_STATUS)[keyof typeof ALERT_STATUS];

/** Device status as reported by device clouds and kept in status periods: 0 offline, 1 online. */
export const DEVICE_STATUS = { offline: 0, online: 1 } as const;
export type DeviceStatus = (typeof DEVICE_STATUS)[keyof typeof DEVICE_STATUS];

/** Report periods (docs/web-pages.md "Pages", docs/product.md "Codes and states"). */
export const REPORT_PERIODS = ['This Week', 'This Month', 'This Quarter', 'This Year'] as const;
export const REPORT_FREQUENCIES = ['Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const;
export const REPORT_TYPES = ['Open Cases', 'Portal Pulse', 'Reliability Score'] as const;

export const LICENSE_TERMS = [1, 3, 5, 10] as const;

/** Business constants (docs/product.md "Constants", docs/decisions.md). */
export const LIMITS = {
  pageSizeDefault: 10,
  pageSizeMax: 1000,
  goalScoreDefault: 95,
  heartbeatTimeoutDefault: 10,
  licenseRenewalDays: 90,
  trialDays: 30,
  pricePerPortalUsd: 49.99,
  webhookMaxDevices: 5000,
  webhookToleranceSeconds: 300,
  searchMinChars: 2,
  searchMaxResults: 20,
} as const;

export const PRODUCT_NAME = 'Vigil';
