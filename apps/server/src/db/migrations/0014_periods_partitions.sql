-- The status history in time partitions, so that no maintenance step grows with the history
-- (docs/performance.md "Maintenance under load"): RANGE on ended_at. The open periods (ended_at null)
-- live in the DEFAULT partition device_status_periods_open, about one row per device: every flip closes
-- one of them (moving it into its month's partition) and opens another, so the dead rows of the flips
-- pile up there only. Closed periods land in monthly partitions (UTC months) that only get inserts;
-- device_status_periods_before holds everything older than the first month. add_period_partitions
-- creates the months ahead (this migration and the period-partitions job). No primary key: one on a
-- partitioned table must include the partition key, and ended_at is null while open; ids stay unique
-- through their sequence, and periods_tenant_id_idx keeps the reads by (tenant_id, id).
-- periods_tenant_ended_idx now holds the closed periods only: a flip's new open period writes no entry
-- there, and the statements that close a period can name `ended_at is null` (which leaves out every
-- partition but the open one) without the planner taking that index for it.
ALTER TABLE "device_status_periods" RENAME TO "device_status_periods_unpartitioned";--> statement-breakpoint
ALTER TABLE "device_status_periods_unpartitioned" RENAME CONSTRAINT "device_status_periods_tenant_id_id_pk" TO "device_status_periods_unpartitioned_pk";--> statement-breakpoint
ALTER TABLE "device_status_periods_unpartitioned" DROP CONSTRAINT "device_status_periods_tenant_id_device_id_devices_tenant_id_id_fk";--> statement-breakpoint
DROP INDEX "periods_device_idx";--> statement-breakpoint
DROP INDEX "periods_portal_idx";--> statement-breakpoint
DROP INDEX "periods_tenant_started_idx";--> statement-breakpoint
DROP INDEX "periods_tenant_ended_idx";--> statement-breakpoint
DROP INDEX "periods_open_offline_idx";--> statement-breakpoint
CREATE TABLE "device_status_periods" (
	"tenant_id" integer NOT NULL,
	"id" bigint DEFAULT nextval('device_status_periods_id_seq') NOT NULL,
	"device_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
) PARTITION BY RANGE ("ended_at");--> statement-breakpoint
ALTER TABLE "device_status_periods_unpartitioned" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
ALTER SEQUENCE "device_status_periods_id_seq" OWNED BY "device_status_periods"."id";--> statement-breakpoint
CREATE TABLE "device_status_periods_open" PARTITION OF "device_status_periods" DEFAULT;--> statement-breakpoint
-- Creates the monthly partitions after the newest one up to the month of `upto` (none yet: from three
-- months back, with device_status_periods_before below them); returns how many. Idempotent. Rows of a
-- new month already in the default partition (a period closed that far ahead) move into it first.
CREATE FUNCTION add_period_partitions(upto timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp;
  month_end timestamp;
  last_month timestamp;
  name text;
  made integer := 0;
BEGIN
  -- the DELETE from the default partition below, under FORCE ROW LEVEL SECURITY
  PERFORM set_config('app.all_tenants', 'on', true);
  SELECT max(to_date(substr(c.relname, 24, 4) || substr(c.relname, 29, 2), 'YYYYMM')::timestamp) INTO last_month
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'device_status_periods'::regclass AND c.relname ~ '^device_status_periods_y[0-9]{4}m[0-9]{2}$';
  IF last_month IS NULL THEN
    month_start := date_trunc('month', (now() AT TIME ZONE 'UTC') - interval '3 months');
    EXECUTE format('CREATE TABLE device_status_periods_before PARTITION OF device_status_periods FOR VALUES FROM (MINVALUE) TO (%L)',
                   month_start AT TIME ZONE 'UTC');
  ELSE
    month_start := last_month + interval '1 month';
  END IF;
  WHILE month_start <= (upto AT TIME ZONE 'UTC') LOOP
    month_end := month_start + interval '1 month';
    name := 'device_status_periods_y' || to_char(month_start, 'YYYY') || 'm' || to_char(month_start, 'MM');
    IF EXISTS (SELECT 1 FROM device_status_periods_open
                WHERE ended_at >= month_start AT TIME ZONE 'UTC' AND ended_at < month_end AT TIME ZONE 'UTC') THEN
      EXECUTE format('CREATE TABLE %I (LIKE device_status_periods INCLUDING DEFAULTS)', name);
      EXECUTE format('WITH moved AS (DELETE FROM device_status_periods_open WHERE ended_at >= %L AND ended_at < %L RETURNING *)
                      INSERT INTO %I SELECT * FROM moved', month_start AT TIME ZONE 'UTC', month_end AT TIME ZONE 'UTC', name);
      EXECUTE format('ALTER TABLE device_status_periods ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                     name, month_start AT TIME ZONE 'UTC', month_end AT TIME ZONE 'UTC');
    ELSE
      EXECUTE format('CREATE TABLE %I PARTITION OF device_status_periods FOR VALUES FROM (%L) TO (%L)',
                     name, month_start AT TIME ZONE 'UTC', month_end AT TIME ZONE 'UTC');
    END IF;
    made := made + 1;
    month_start := month_end;
  END LOOP;
  RETURN made;
END $$;--> statement-breakpoint
-- The tables' owner runs it (the migration, the job); the application role has no business with it.
REVOKE EXECUTE ON FUNCTION add_period_partitions(timestamptz) FROM PUBLIC;--> statement-breakpoint
SELECT add_period_partitions(now() + interval '2 months');--> statement-breakpoint
-- Months older than the first partition land in device_status_periods_before; months ahead of the last
-- (a period closed in the future) in the default partition, until their month is created.
INSERT INTO "device_status_periods" ("tenant_id", "id", "device_id", "portal_id", "status", "started_at", "ended_at")
SELECT "tenant_id", "id", "device_id", "portal_id", "status", "started_at", "ended_at" FROM "device_status_periods_unpartitioned";--> statement-breakpoint
DROP TABLE "device_status_periods_unpartitioned";--> statement-breakpoint
ALTER TABLE "device_status_periods" ADD CONSTRAINT "device_status_periods_tenant_id_device_id_devices_tenant_id_id_fk" FOREIGN KEY ("tenant_id","device_id") REFERENCES "public"."devices"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "periods_tenant_id_idx" ON "device_status_periods" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "periods_device_idx" ON "device_status_periods" USING btree ("tenant_id","device_id","started_at");--> statement-breakpoint
CREATE INDEX "periods_portal_idx" ON "device_status_periods" USING btree ("tenant_id","portal_id","started_at");--> statement-breakpoint
CREATE INDEX "periods_tenant_started_idx" ON "device_status_periods" USING btree ("tenant_id","started_at","ended_at","portal_id","status","device_id");--> statement-breakpoint
CREATE INDEX "periods_tenant_ended_idx" ON "device_status_periods" USING btree ("tenant_id","ended_at","started_at","portal_id","status","device_id") WHERE "device_status_periods"."ended_at" is not null;--> statement-breakpoint
CREATE INDEX "periods_open_offline_idx" ON "device_status_periods" USING btree ("tenant_id","portal_id","device_id","started_at") WHERE "device_status_periods"."ended_at" is null and "device_status_periods"."status" = 0;
