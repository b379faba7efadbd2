import { ALERT_TYPE, CASE_STATUS, DEVICE_STATUS } from '@vigil/contracts';
import { sql } from 'drizzle-orm';

/**
 * The contracts' status and type codes as literals of a statement's text (`d.status = ${ONLINE}`
 * reads `d.status = 1`). Never bound parameters: the text stays as it was, so do its prepared
 * statements and plans, and a partial index whose predicate names the literal
 * (periods_open_offline_idx: `status = 0`) still matches.
 */
export const OFFLINE = sql.raw(String(DEVICE_STATUS.offline));
export const ONLINE = sql.raw(String(DEVICE_STATUS.online));
export const DEVICE_OFFLINE_ALERT = sql.raw(String(ALERT_TYPE.deviceOffline));
export const LICENSE_RENEWAL_ALERT = sql.raw(String(ALERT_TYPE.licenseRenewal));
export const COMPLETED_CASE = sql.raw(String(CASE_STATUS.completed));
