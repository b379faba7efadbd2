import { CASE_COMPLETED, CASE_STATUSES } from '@vigil/contracts';

/** Open cases by status: the four open statuses in order, zero where a status has no row. */
export function caseStatusSeries(rows: readonly { caseType: number; count: number }[]) {
  const categories = CASE_STATUSES.slice(0, CASE_COMPLETED);
  return { categories, values: categories.map((_, code) => rows.find((r) => r.caseType === code)?.count ?? 0) };
}

/** Daily online share (percent) by day (MM-DD); a day with nothing observed (-1) has no bar. */
export function dailyShareSeries(daily: readonly { date: string; onlineShare: number }[]) {
  return { categories: daily.map((d) => d.date.slice(5)), values: daily.map((d) => (d.onlineShare < 0 ? null : d.onlineShare)) };
}
