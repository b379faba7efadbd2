CREATE TABLE "alert_order_versions" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_order_versions" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Id mark versions (schema/counts.ts): the id marks of 0013, now also bumping the tenant's version with
-- them, once per transaction per tenant (a row this transaction already bumped has it as xmin), so that a
-- list that keeps a tenant's marks in memory (db/id-marks.ts) can tell in its page's statement that they
-- still hold.
CREATE OR REPLACE FUNCTION "case_id_marks_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_id_marks AS m (tenant_id, bucket, total)
    SELECT tenant_id, id >> 10, count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, bucket) DO UPDATE SET total = m.total + excluded.total;
    INSERT INTO case_order_versions AS v (tenant_id, version)
    SELECT DISTINCT tenant_id, 1 FROM new_rows ORDER BY 1
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  ELSE
    UPDATE case_id_marks m SET total = m.total - x.n
      FROM (SELECT tenant_id, id >> 10 AS bucket, count(*)::int AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) x
     WHERE m.tenant_id = x.tenant_id AND m.bucket = x.bucket;
    INSERT INTO case_order_versions AS v (tenant_id, version)
    SELECT DISTINCT tenant_id, 1 FROM old_rows ORDER BY 1
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The same for the alerts' id marks.
CREATE OR REPLACE FUNCTION "alert_id_marks_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_id_marks AS m (tenant_id, bucket, total)
    SELECT tenant_id, id >> 10, count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, bucket) DO UPDATE SET total = m.total + excluded.total;
    INSERT INTO alert_order_versions AS v (tenant_id, version)
    SELECT DISTINCT tenant_id, 1 FROM new_rows ORDER BY 1
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  ELSE
    UPDATE alert_id_marks m SET total = m.total - x.n
      FROM (SELECT tenant_id, id >> 10 AS bucket, count(*)::int AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) x
     WHERE m.tenant_id = x.tenant_id AND m.bucket = x.bucket;
    INSERT INTO alert_order_versions AS v (tenant_id, version)
    SELECT DISTINCT tenant_id, 1 FROM old_rows ORDER BY 1
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END $$;
