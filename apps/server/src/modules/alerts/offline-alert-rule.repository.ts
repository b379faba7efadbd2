import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { runCommands } from '../../db/commands.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { at } from '../../db/sql-list.ts';
import { TOPICS, type AlertOpenedEvent } from '../../events/topics.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';
import { DEVICE_OFFLINE_ALERT, OFFLINE } from '../../db/codes.ts';

/** Serializes the alert rules across processes (a slow tick never overlaps the next one's writes). */
export const ALERT_RULES_LOCK = 0x76_69_67_01;

export const lockAlertRules = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${ALERT_RULES_LOCK})`);

/**
 * An open Device Offline alert (alias `a`): the rules read only these, through their partial index
 * alerts_open_offline_idx (migration 0007) instead of scanning every alert (200,000 at size L) each tick.
 */
export const OPEN_OFFLINE_ALERT = sql`a.alert_type = ${DEVICE_OFFLINE_ALERT} and a.resolved_at is null`;

/**
 * Whether the open alert `a` holds a device still offline (not removed, of a portal not deleted):
 * its devices one by one through the key of alert_devices, each device and its portal through their
 * keys, up to the first found. Each `offset 0` keeps a subquery a lookup per row, whatever the
 * planner estimates (see below); the device's subquery also keeps the planner from reading it through
 * devices_list_name_idx (its predicate is `removed_at is null`) over the whole tenant's range.
 */
const HOLDS_OFFLINE_DEVICE = sql`exists (
  select 1 from alert_devices ad
   cross join lateral (
     select d.portal_id, d.status, d.removed_at, d.maintenance_since from devices d where d.tenant_id = ad.tenant_id and d.id = ad.device_id offset 0) d
   where ad.tenant_id = a.tenant_id and ad.alert_id = a.id and d.status = ${OFFLINE} and d.removed_at is null
     and d.maintenance_since is null
     and exists (select 1 from portals p where p.tenant_id = ad.tenant_id and p.id = d.portal_id and p.deleted_at is null offset 0)
  offset 0)`;

/**
 * Whether a maintenance window covers the open offline period `op` at `now` (`t` its tenant): the job
 * (jobs/maintenance.job.ts) moves covered devices into maintenance within 5 s, and until it has, a
 * device that went offline after the window began must not open an alert (docs/maintenance.md). One
 * probe of maintenance_windows_portal_idx per uncovered device, usually into no row.
 */
const covered = (now: Date) => sql`exists (
  select 1 from maintenance_windows mw
   cross join lateral maintenance_occurrence(mw.starts_at, mw.ends_at, mw.recurrence, t.timezone, ${at(now)}) o
   where mw.tenant_id = op.tenant_id and mw.portal_id = op.portal_id and mw.starts_at <= ${at(now)} and o.occ_end > ${at(now)}
     and (cardinality(mw.device_ids) = 0 or op.device_id = any(mw.device_ids)))`;

/**
 * The "Device Offline" rules of docs/alerts.md, over every tenant, in one transaction and one
 * statement. A portal has at most one open Device Offline alert:
 * 1. an open type-0 alert none of whose devices is still offline (back online, removed, of a deleted
 *    portal, or in maintenance: docs/maintenance.md) is resolved (`resolved_at`);
 * 2. offline devices not held by an open type-0 alert and not covered by a maintenance window (uncovered) join their portal's open alert
 *    that stays open (one still holding an offline device), whose `offline_count` grows to its
 *    device count; a portal with uncovered devices and no such alert opens one new alert holding
 *    them (announced at commit). The alert step 1 resolves in the same statement is exactly one
 *    holding no offline device, so it is never joined: the uncovered devices open a new one, as if
 *    step 1 ran first.
 * Announces the alerts opened (`alerts.opened`) and those devices joined (`alerts.joined`, with the new
 * count), at commit. Returns the ids of the alerts opened. Run through the job's tick claim.
 *
 * Why one statement, prepared, read from the open alerts: the rule runs every 5 s. Per portal (an
 * insert, its announcement, the held devices, the count: 4 statements each) a storm of webhooks
 * turning 3,000 devices of 50 portals offline held PGlite's one session for 0.3-1.3 s per tick while
 * every webhook waited. Then, as two statements, the planner hashed every alert_devices row ever
 * written (20,000 at S, 237,000 at L after the bench's storms, growing with each alert) twice per
 * tick. Then the open alerts' held devices were read into a materialized CTE and anti-joined twice
 * (against each open alert, against the offline devices): without statistics (a new database, or
 * PostgreSQL with autovacuum off) the planner guessed one held device and made both nested loops
 * over the CTE, and the tick never finished (PostgreSQL's 30 s statement timeout every tick).
 * Now nothing is joined by the planner's choice: each step looks rows up through keys, each lookup
 * a subquery kept per row by `offset 0` (otherwise pulled up into a join whose method follows the
 * estimates), stopping at the first row found:
 * - resolved: per open alert, its devices through the key of alert_devices, each device and its
 *   portal through their keys, until one offline is found (HOLDS_OFFLINE_DEVICE);
 * - uncovered: per offline device (its open offline period, per portal through
 *   periods_open_offline_idx), its alert_devices rows newest first through alert_devices_device_idx
 *   (tenant, device, alert), each alert through alerts_open_offline_idx, until an open one is found.
 *   A held device's open alert is its newest (it joins one only while no open one holds it), so the
 *   lookup stops at the first row whatever the device's history (it reads on past a resolved one, so
 *   its answer never depends on that order); oldest first (the index without the alert), a device
 *   that had been offline 8 times before read 9 rows and 9 alerts a tick
 *   (docs/performance-choices.md "The Device Offline rule reads a device's newest alert first");
 * - the join step: only the portals with uncovered devices (none in a tick with nothing to do),
 *   their open alerts through alerts_open_offline_idx, each checked as in resolved.
 * A tick with nothing to do, 20,000 devices, 10,000 offline held by 400 open alerts
 * (test/tools/offline-rule-without-statistics.ts), before -> after: PostgreSQL without statistics,
 * cancelled at 30 s every tick -> 195-209 ms, analyzed 135-232 -> 125-184 ms; PGlite without
 * statistics, not finished in 4 minutes even at 2,000 devices -> 149-277 ms, analyzed 70-146 ->
 * 177-250 ms (the per-device lookups of uncovered cost more than a hash when the estimates are
 * right: the price of not depending on them). The tick that opens the alerts of all 10,000 (UNHELD=1,
 * one tick each): PostgreSQL without statistics 934 -> 1,032 ms; PGlite without 1,122-1,564 ->
 * 1,694-1,918 ms, analyzed 661 -> 867 ms.
 */
export async function applyOfflineAlertRules(deps: Pick<AppDeps, 'database' | 'bus'>, now: Date): Promise<number[]> {
  return inScope(deps.database.db, allTenants, async (tx) => {
    await lockAlertRules(tx);
    // PostgreSQL compiled this statement with JIT (its cost estimate passes jit_above_cost once
    // thousands of alerts are open): 64 ms of compiling per tick at size L.
    if (deps.database.kind === 'postgres') await runCommands(tx, 'set local jit = off');
    const changed = await deps.database.prepared.rows<AlertOpenedEvent & { joined: boolean }>(
      tx,
      sql`with resolved as (
            update alerts a set resolved_at = ${at(now)}, updated_at = ${at(now)}
             where ${OPEN_OFFLINE_ALERT} and not ${HOLDS_OFFLINE_DEVICE}),
          uncovered as materialized (
            select op.tenant_id, op.portal_id, op.device_id
              from ${OFFLINE_PERIODS}
              join portals p on p.tenant_id = op.tenant_id and p.id = op.portal_id and p.deleted_at is null
              join tenants t on t.id = op.tenant_id and t.deleted_at is null
             where ${IS_OPEN_OFFLINE}
               and not exists (
                 select 1 from alert_devices ad
                  where ad.tenant_id = op.tenant_id and ad.device_id = op.device_id
                    and exists (select 1 from alerts a where a.tenant_id = ad.tenant_id and a.id = ad.alert_id and ${OPEN_OFFLINE_ALERT} offset 0)
                  order by ad.alert_id desc
                 offset 0)
               and not ${covered(now)}),
          target as materialized (
            select distinct on (a.tenant_id, a.portal_id) a.tenant_id, a.portal_id, a.id as alert_id
              from (select distinct u.tenant_id, u.portal_id from uncovered u) up
              join alerts a on a.tenant_id = up.tenant_id and a.portal_id = up.portal_id
             where ${OPEN_OFFLINE_ALERT} and ${HOLDS_OFFLINE_DEVICE}
             order by a.tenant_id, a.portal_id, a.id),
          joined_held as (
            insert into alert_devices (tenant_id, alert_id, device_id)
            select g.tenant_id, g.alert_id, u.device_id from target g join uncovered u on u.tenant_id = g.tenant_id and u.portal_id = g.portal_id
            returning tenant_id, alert_id),
          joined as (
            update alerts a set offline_count = a.offline_count + j.n, updated_at = ${at(now)}
              from (select jh.tenant_id, jh.alert_id, count(*)::int as n from joined_held jh group by jh.tenant_id, jh.alert_id) j
             where a.tenant_id = j.tenant_id and a.id = j.alert_id
            returning a.tenant_id, a.portal_id, a.id, a.offline_count),
          opened as (
            insert into alerts (tenant_id, portal_id, alert_type, offline_count, critical, created_at, updated_at)
            select u.tenant_id, u.portal_id, 0, count(*), 0, ${at(now)}, ${at(now)}
              from uncovered u
             where not exists (select 1 from target g where g.tenant_id = u.tenant_id and g.portal_id = u.portal_id)
             group by u.tenant_id, u.portal_id order by u.tenant_id, u.portal_id
            returning tenant_id, portal_id, id, offline_count),
          newly_held as (
            insert into alert_devices (tenant_id, alert_id, device_id)
            select o.tenant_id, o.id, u.device_id from opened o join uncovered u on u.tenant_id = o.tenant_id and u.portal_id = o.portal_id)
          select x.joined, x.tenant_id as "tenantId", x.id as "alertId", x.portal_id as "portalId", p.name as "customerName",
                 0 as "alertType", x.offline_count as "offlineCount"
            from (select false as joined, o.* from opened o union all select true, j.* from joined j) x
            join portals p on p.tenant_id = x.tenant_id and p.id = x.portal_id
           order by x.id`,
    );
    const events = (joined: boolean) => changed.filter((a) => a.joined === joined).map(({ joined: _, ...event }) => event);
    await deps.bus.publishAll(TOPICS.alertOpened, events(false), tx);
    await deps.bus.publishAll(TOPICS.alertJoined, events(true), tx);
    return events(false).map((a) => a.alertId);
  });
}
