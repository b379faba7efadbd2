import { sql, type SQL } from 'drizzle-orm';
import { edgeAndChange, edgePeriods, type Conds } from './rollup-query.repository.ts';
import { markCheckJson, markCheckOf, markPatch, type MarkCheck, type MarkRead, type NextMark } from './mark.repository.ts';

/**
 * Marks of a kept window's head (docs/uptime-rollup.md "Marks of the current hour"): a read of the
 * portal scores from the kept window (kept-window-query.repository.ts) walks every period that
 * started or ended since the base's end T, and looks for periods written since the base that
 * start before T (unsettled portals). A mark holds, per portal, what those periods add up to an
 * instant P (PP(T, P) and Δn(T, P), as hour-mark.repository.ts for the rolled hour) and the
 * unsettled portals as of the highest id it saw; while it stands (mark.repository.ts) no period
 * written since starts at or before P, so none starts before T either, and a read walks only the
 * periods since P.
 */
export interface KeptMark extends MarkCheck {
  /** Its base is the kept window's end T. Per portal: PP(T, P) and Δn(T, P), online and observed (exact, as text). */
  rows: { portal_id: number; on_us: string; obs_us: string; on_n: string; obs_n: string }[];
  /** The portals with a period written after the base but starting before T, as of `lastId`, with the earliest start. */
  unsettled: { portal_id: number; since: string }[];
}

/** What a mark is read from: a kept mark, or the base itself (nothing since T, its unsettled portals still to find). */
export type KeptFrom = Pick<KeptMark, 'base' | 'at' | 'rows'> & { unsettled?: KeptMark['unsettled'] };

export function keptFromBase(T: Date): KeptFrom {
  return { base: T.getTime(), at: T.getTime(), rows: [] };
}

const rowsOf = (rows: KeptMark['rows']) =>
  sql`json_to_recordset(${JSON.stringify(rows)}::json) as m(portal_id int, on_us numeric, obs_us numeric, on_n numeric, obs_n numeric)`;
const portalsIn = (alias: string, ids: number[] | undefined) =>
  ids ? sql`${sql.raw(alias)}.portal_id = any(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[])` : sql`true`;

/**
 * The body of a CTE `nm` (portal_id, on_us, obs_us, on_n, obs_n): per portal of the tenant (`c`: its
 * conditions, no portal ids), the sums of the mark at `at` read from `from` (at or after its instant)
 * in one walk of the periods between, or `from`'s own when `at` is its instant; `walked`: how many periods
 * of the portal that walk read. A kept mark's own sums take in what the periods of the tenant written
 * since it change in them (mark.repository.ts markPatch: the statement defines CTE `ms`).
 */
export function keptSums(c: Conds, from: KeptFrom | KeptMark, at: Date): SQL {
  const own = sql`select m.portal_id, m.on_us, m.obs_us, m.on_n, m.obs_n from ${rowsOf(from.rows)}`;
  const sums =
    'fromId' in from
      ? sql`select portal_id, sum(on_us) as on_us, sum(obs_us) as obs_us, sum(on_n) as on_n, sum(obs_n) as obs_n
              from (${own} union all select x.portal_id, x.on_us, x.obs_us, x.on_n, x.obs_n from (${markPatch(from)}) x) f
             group by portal_id`
      : own;
  if (at.getTime() === from.at) return sql`select f.portal_id, f.on_us, f.obs_us, f.on_n, f.obs_n, 0 as walked from (${sums}) f`;
  const spanUs = (at.getTime() - from.at) * 1000;
  return sql`
    select portal_id, sum(on_us) as on_us, sum(obs_us) as obs_us, sum(on_n) as on_n, sum(obs_n) as obs_n, sum(w) as walked
      from (select f.portal_id, f.on_us + f.on_n * ${spanUs}::numeric as on_us, f.obs_us + f.obs_n * ${spanUs}::numeric as obs_us,
                   f.on_n, f.obs_n, 0 as w
              from (${sums}) f
            union all
            select e.portal_id, e.on_us, e.obs_us, e.on_n, e.obs_n, 1 from (${edgeAndChange(c, new Date(from.at), at)}) e) x
     group by portal_id`;
}

/** Rows (portal_id, on_us, obs_us) summing per portal to PP(T, x) from the sums of CTE `nm`, a mark at `at`, for `ids` (all: undefined). */
export function headSinceSums(c: Conds, at: Date, x: Date, ids?: number[]): SQL {
  const spanUs = (x.getTime() - at.getTime()) * 1000;
  return sql`
    select nm.portal_id, nm.on_us + nm.on_n * ${spanUs}::numeric as on_us, nm.obs_us + nm.obs_n * ${spanUs}::numeric as obs_us
      from nm where ${portalsIn('nm', ids)}
    union all ${edgePeriods(c, at, x, 1)}`;
}

/** Rows (portal_id, since) of the mark's unsettled portals among `ids` (all: undefined). */
export function unsettledOf(mark: KeptMark, ids?: number[]): SQL {
  return sql`select m.portal_id, m.since from json_to_recordset(${JSON.stringify(mark.unsettled)}::json) as m(portal_id int, since timestamptz)
              where ${portalsIn('m', ids)}`;
}

/**
 * SQL json: the mark at `next.at` whose sums are CTE `nm`, read from `from`. Its unsettled portals are
 * `from`'s (a mark that stands has no new ones), or, from the base itself, those found now above the
 * kept base's period id mark `baseMark`.
 */
export function keptMarkJson(tenantId: number, from: KeptFrom | KeptMark, next: NextMark, baseMark: number): SQL {
  const at = next.at;
  const T = new Date(from.base).toISOString();
  const unsettled = from.unsettled
    ? sql`${JSON.stringify(from.unsettled)}::json`
    : sql`(select coalesce(json_agg(json_build_object('portal_id', portal_id, 'since', since)), '[]'::json)
             from (select p.portal_id, min(p.started_at) as since from device_status_periods p
                    where p.tenant_id = ${tenantId} and p.id > ${baseMark} and p.started_at < ${T}::timestamptz
                    group by p.portal_id) u)`;
  return sql`(select json_build_object(
               'base', ${from.base}::bigint, 'at', ${at.getTime()}::bigint,
               'rows', (select coalesce(json_agg(json_build_object('portal_id', portal_id, 'on_us', on_us::text, 'obs_us', obs_us::text,
                                                                   'on_n', on_n::text, 'obs_n', obs_n::text)), '[]'::json) from nm),
               'unsettled', ${unsettled},
               'walked', (select coalesce(sum(walked), 0) from nm),
               'check', ${markCheckJson(tenantId, from.base, at.getTime(), 'fromId' in from ? from : undefined, next.anchors)}))`;
}

/** Reads a mark's json (keptMarkJson) as a KeptMark. */
export function keptMarkOf(
  json:
    | (Pick<KeptMark, 'rows' | 'unsettled' | 'walked'> & {
        base: number | string;
        at: number | string;
        check: Parameters<typeof markCheckOf>[0];
      })
    | null,
): MarkRead<KeptMark> | undefined {
  if (!json) return undefined;
  return {
    base: Number(json.base),
    at: Number(json.at),
    rows: json.rows.map((r) => ({ ...r, portal_id: Number(r.portal_id) })),
    unsettled: json.unsettled.map((u) => ({ portal_id: Number(u.portal_id), since: String(u.since) })),
    walked: Number(json.walked),
    ...markCheckOf(json.check),
  };
}
