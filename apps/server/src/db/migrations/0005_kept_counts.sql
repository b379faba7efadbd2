CREATE TABLE "alert_counts" (
	"tenant_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"alert_type" smallint NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "alert_counts_tenant_id_portal_id_alert_type_pk" PRIMARY KEY("tenant_id","portal_id","alert_type")
);
--> statement-breakpoint
CREATE TABLE "case_counts" (
	"tenant_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"case_type" smallint NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "case_counts_tenant_id_portal_id_case_type_pk" PRIMARY KEY("tenant_id","portal_id","case_type")
);
--> statement-breakpoint
CREATE TABLE "device_counts" (
	"tenant_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"camera_total" integer DEFAULT 0 NOT NULL,
	"camera_online" integer DEFAULT 0 NOT NULL,
	"intercom_total" integer DEFAULT 0 NOT NULL,
	"intercom_online" integer DEFAULT 0 NOT NULL,
	"access_total" integer DEFAULT 0 NOT NULL,
	"access_online" integer DEFAULT 0 NOT NULL,
	"alarm_total" integer DEFAULT 0 NOT NULL,
	"alarm_online" integer DEFAULT 0 NOT NULL,
	"environmental_total" integer DEFAULT 0 NOT NULL,
	"environmental_online" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_counts_tenant_id_portal_id_pk" PRIMARY KEY("tenant_id","portal_id")
);
--> statement-breakpoint
CREATE INDEX "devices_list_name_idx" ON "devices" USING btree ("tenant_id",lower("name"),"id") WHERE "devices"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "portals_deleted_idx" ON "portals" USING btree ("tenant_id","id") WHERE "portals"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "alerts_list_created_idx" ON "alerts" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "alerts_list_type_idx" ON "alerts" USING btree ("tenant_id","alert_type","id");--> statement-breakpoint
CREATE INDEX "cases_list_created_idx" ON "cases" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cases_list_type_idx" ON "cases" USING btree ("tenant_id","case_type","id");
--> statement-breakpoint
-- Kept counts (schema/counts.ts), maintained set-based: one statement-level trigger per operation with
-- its transition table(s). Each changed row adds +1 for its new state and -1 for its old state per key;
-- keys whose deltas sum to zero (a report that changes no status, a heartbeat) write and lock nothing.
-- Rows are applied in key order so two concurrent statements lock count rows in the same order.
-- (A transition table exists only for its operations, hence one statement per TG_OP.)
CREATE FUNCTION "device_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO device_counts AS c (tenant_id, portal_id, camera_total, camera_online, intercom_total, intercom_online, access_total, access_online, alarm_total, alarm_online, environmental_total, environmental_online)
    SELECT tenant_id, portal_id,
           coalesce(sum(n) FILTER (WHERE device_type = 0), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 0), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 1), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 1), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 2), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 2), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 3), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 3), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 4), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 4), 0)::int
      FROM (SELECT tenant_id, portal_id, device_type, sum(n) AS n, sum(o) AS o
              FROM (SELECT tenant_id, portal_id, device_type, 1 AS n, (status = 1)::int AS o FROM new_rows WHERE removed_at IS NULL) d
             GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(o) <> 0) x
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, portal_id) DO UPDATE SET
        camera_total = c.camera_total + excluded.camera_total, camera_online = c.camera_online + excluded.camera_online,
        intercom_total = c.intercom_total + excluded.intercom_total, intercom_online = c.intercom_online + excluded.intercom_online,
        access_total = c.access_total + excluded.access_total, access_online = c.access_online + excluded.access_online,
        alarm_total = c.alarm_total + excluded.alarm_total, alarm_online = c.alarm_online + excluded.alarm_online,
        environmental_total = c.environmental_total + excluded.environmental_total, environmental_online = c.environmental_online + excluded.environmental_online;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO device_counts AS c (tenant_id, portal_id, camera_total, camera_online, intercom_total, intercom_online, access_total, access_online, alarm_total, alarm_online, environmental_total, environmental_online)
    SELECT tenant_id, portal_id,
           coalesce(sum(n) FILTER (WHERE device_type = 0), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 0), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 1), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 1), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 2), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 2), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 3), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 3), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 4), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 4), 0)::int
      FROM (SELECT tenant_id, portal_id, device_type, sum(n) AS n, sum(o) AS o
              FROM (SELECT tenant_id, portal_id, device_type, -1 AS n, -(status = 1)::int AS o FROM old_rows WHERE removed_at IS NULL) d
             GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(o) <> 0) x
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, portal_id) DO UPDATE SET
        camera_total = c.camera_total + excluded.camera_total, camera_online = c.camera_online + excluded.camera_online,
        intercom_total = c.intercom_total + excluded.intercom_total, intercom_online = c.intercom_online + excluded.intercom_online,
        access_total = c.access_total + excluded.access_total, access_online = c.access_online + excluded.access_online,
        alarm_total = c.alarm_total + excluded.alarm_total, alarm_online = c.alarm_online + excluded.alarm_online,
        environmental_total = c.environmental_total + excluded.environmental_total, environmental_online = c.environmental_online + excluded.environmental_online;
  ELSE
    INSERT INTO device_counts AS c (tenant_id, portal_id, camera_total, camera_online, intercom_total, intercom_online, access_total, access_online, alarm_total, alarm_online, environmental_total, environmental_online)
    SELECT tenant_id, portal_id,
           coalesce(sum(n) FILTER (WHERE device_type = 0), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 0), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 1), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 1), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 2), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 2), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 3), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 3), 0)::int,
           coalesce(sum(n) FILTER (WHERE device_type = 4), 0)::int, coalesce(sum(o) FILTER (WHERE device_type = 4), 0)::int
      FROM (SELECT tenant_id, portal_id, device_type, sum(n) AS n, sum(o) AS o
              FROM (SELECT tenant_id, portal_id, device_type, 1 AS n, (status = 1)::int AS o FROM new_rows WHERE removed_at IS NULL
                    UNION ALL SELECT tenant_id, portal_id, device_type, -1 AS n, -(status = 1)::int AS o FROM old_rows WHERE removed_at IS NULL) d
             GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(o) <> 0) x
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, portal_id) DO UPDATE SET
        camera_total = c.camera_total + excluded.camera_total, camera_online = c.camera_online + excluded.camera_online,
        intercom_total = c.intercom_total + excluded.intercom_total, intercom_online = c.intercom_online + excluded.intercom_online,
        access_total = c.access_total + excluded.access_total, access_online = c.access_online + excluded.access_online,
        alarm_total = c.alarm_total + excluded.alarm_total, alarm_online = c.alarm_online + excluded.alarm_online,
        environmental_total = c.environmental_total + excluded.environmental_total, environmental_online = c.environmental_online + excluded.environmental_online;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "device_counts_insert" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "device_counts_update" AFTER UPDATE ON "devices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "device_counts_delete" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();
--> statement-breakpoint
CREATE FUNCTION "case_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_counts AS c (tenant_id, portal_id, case_type, total)
    SELECT tenant_id, portal_id, case_type, count(*)::int FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, portal_id, case_type) DO UPDATE SET total = c.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE case_counts c SET total = c.total - x.n
      FROM (SELECT tenant_id, portal_id, case_type, count(*)::int AS n FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) x
     WHERE c.tenant_id = x.tenant_id AND c.portal_id = x.portal_id AND c.case_type = x.case_type;
  ELSE
    INSERT INTO case_counts AS c (tenant_id, portal_id, case_type, total)
    SELECT tenant_id, portal_id, case_type, sum(n)::int
      FROM (SELECT tenant_id, portal_id, case_type, 1 AS n FROM new_rows
            UNION ALL
            SELECT tenant_id, portal_id, case_type, -1 FROM old_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, portal_id, case_type) DO UPDATE SET total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "case_counts_insert" AFTER INSERT ON "cases" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "case_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "case_counts_update" AFTER UPDATE ON "cases" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "case_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "case_counts_delete" AFTER DELETE ON "cases" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "case_counts_apply"();
--> statement-breakpoint
CREATE FUNCTION "alert_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_counts AS c (tenant_id, portal_id, alert_type, total)
    SELECT tenant_id, portal_id, alert_type, count(*)::int FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, portal_id, alert_type) DO UPDATE SET total = c.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE alert_counts c SET total = c.total - x.n
      FROM (SELECT tenant_id, portal_id, alert_type, count(*)::int AS n FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) x
     WHERE c.tenant_id = x.tenant_id AND c.portal_id = x.portal_id AND c.alert_type = x.alert_type;
  ELSE
    INSERT INTO alert_counts AS c (tenant_id, portal_id, alert_type, total)
    SELECT tenant_id, portal_id, alert_type, sum(n)::int
      FROM (SELECT tenant_id, portal_id, alert_type, 1 AS n FROM new_rows
            UNION ALL
            SELECT tenant_id, portal_id, alert_type, -1 FROM old_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, portal_id, alert_type) DO UPDATE SET total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "alert_counts_insert" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "alert_counts_update" AFTER UPDATE ON "alerts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "alert_counts_delete" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_counts_apply"();
--> statement-breakpoint
-- Existing rows: counted once here; from now on the triggers keep the counts.
INSERT INTO device_counts (tenant_id, portal_id, camera_total, camera_online, intercom_total, intercom_online, access_total, access_online, alarm_total, alarm_online, environmental_total, environmental_online)
SELECT tenant_id, portal_id,
       (count(*) FILTER (WHERE device_type = 0))::int, (count(*) FILTER (WHERE device_type = 0 AND status = 1))::int,
       (count(*) FILTER (WHERE device_type = 1))::int, (count(*) FILTER (WHERE device_type = 1 AND status = 1))::int,
       (count(*) FILTER (WHERE device_type = 2))::int, (count(*) FILTER (WHERE device_type = 2 AND status = 1))::int,
       (count(*) FILTER (WHERE device_type = 3))::int, (count(*) FILTER (WHERE device_type = 3 AND status = 1))::int,
       (count(*) FILTER (WHERE device_type = 4))::int, (count(*) FILTER (WHERE device_type = 4 AND status = 1))::int
  FROM devices WHERE removed_at IS NULL GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO case_counts (tenant_id, portal_id, case_type, total)
SELECT tenant_id, portal_id, case_type, count(*)::int FROM cases GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO alert_counts (tenant_id, portal_id, alert_type, total)
SELECT tenant_id, portal_id, alert_type, count(*)::int FROM alerts GROUP BY 1, 2, 3;
