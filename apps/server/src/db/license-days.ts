import { sql, type SQL } from 'drizzle-orm';
import { at } from './sql-list.ts';

/**
 * Days from today in the tenant's time zone to the license's end date (negative once ended), for a
 * statement that names the license `l` and its tenant `t`. Shared by the licenses' list and the
 * license renewal alert rule (alerts/license-alert-rule.repository.ts).
 */
export const daysRemainingSql = (now: Date): SQL => sql`(l.end_date - (${at(now)} at time zone t.timezone)::date)`;
