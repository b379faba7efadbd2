CREATE TABLE "uptime_rollup_hours" (
	"tenant_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"online_us" bigint NOT NULL,
	"observed_us" bigint NOT NULL,
	"online_at_start" integer NOT NULL,
	"observed_at_start" integer NOT NULL,
	CONSTRAINT "uptime_rollup_hours_tenant_id_hour_pk" PRIMARY KEY("tenant_id","hour")
);
--> statement-breakpoint
DROP INDEX "periods_tenant_started_idx";--> statement-breakpoint
DROP INDEX "periods_tenant_ended_idx";--> statement-breakpoint
-- A rollup built before this column existed is rebuilt from scratch by the next job run.
DELETE FROM "uptime_rollup_state";--> statement-breakpoint
ALTER TABLE "uptime_rollup_state" ADD COLUMN "hours_rolled_until" timestamp with time zone NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_removed_idx" ON "devices" USING btree ("tenant_id","removed_at","id") WHERE "devices"."removed_at" is not null;--> statement-breakpoint
CREATE INDEX "periods_tenant_started_idx" ON "device_status_periods" USING btree ("tenant_id","started_at","ended_at","portal_id","status","device_id");--> statement-breakpoint
CREATE INDEX "periods_tenant_ended_idx" ON "device_status_periods" USING btree ("tenant_id","ended_at","started_at","portal_id","status","device_id");