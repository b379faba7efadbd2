CREATE TABLE "alert_id_marks" (
	"tenant_id" integer NOT NULL,
	"bucket" integer NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "alert_id_marks_tenant_id_bucket_pk" PRIMARY KEY("tenant_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "case_id_marks" (
	"tenant_id" integer NOT NULL,
	"bucket" integer NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "case_id_marks_tenant_id_bucket_pk" PRIMARY KEY("tenant_id","bucket")
);
--> statement-breakpoint
-- Id marks (schema/counts.ts): per tenant and block of 1,024 ids, how many rows. Kept set-based as the
-- kept counts of 0005 are: one statement-level trigger per operation with its transition table, rows
-- applied in key order. Ids and tenants never change, so updates need none.
CREATE FUNCTION "case_id_marks_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_id_marks AS m (tenant_id, bucket, total)
    SELECT tenant_id, id >> 10, count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, bucket) DO UPDATE SET total = m.total + excluded.total;
  ELSE
    UPDATE case_id_marks m SET total = m.total - x.n
      FROM (SELECT tenant_id, id >> 10 AS bucket, count(*)::int AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) x
     WHERE m.tenant_id = x.tenant_id AND m.bucket = x.bucket;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "case_id_marks_insert" AFTER INSERT ON "cases" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "case_id_marks_apply"();
--> statement-breakpoint
CREATE TRIGGER "case_id_marks_delete" AFTER DELETE ON "cases" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "case_id_marks_apply"();
--> statement-breakpoint
CREATE FUNCTION "alert_id_marks_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_id_marks AS m (tenant_id, bucket, total)
    SELECT tenant_id, id >> 10, count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, bucket) DO UPDATE SET total = m.total + excluded.total;
  ELSE
    UPDATE alert_id_marks m SET total = m.total - x.n
      FROM (SELECT tenant_id, id >> 10 AS bucket, count(*)::int AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) x
     WHERE m.tenant_id = x.tenant_id AND m.bucket = x.bucket;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "alert_id_marks_insert" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_id_marks_apply"();
--> statement-breakpoint
CREATE TRIGGER "alert_id_marks_delete" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_id_marks_apply"();
--> statement-breakpoint
INSERT INTO case_id_marks (tenant_id, bucket, total) SELECT tenant_id, id >> 10, count(*)::int FROM cases GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO alert_id_marks (tenant_id, bucket, total) SELECT tenant_id, id >> 10, count(*)::int FROM alerts GROUP BY 1, 2;
