CREATE TABLE "uptime_rollup_state" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	"period_id_mark" bigint NOT NULL,
	"period_id_prev_mark" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uptime_rollups" (
	"tenant_id" integer NOT NULL,
	"day" date NOT NULL,
	"portal_id" integer NOT NULL,
	"online_us" bigint NOT NULL,
	"observed_us" bigint NOT NULL,
	"online_at_start" integer NOT NULL,
	"observed_at_start" integer NOT NULL,
	CONSTRAINT "uptime_rollups_tenant_id_day_portal_id_pk" PRIMARY KEY("tenant_id","day","portal_id")
);
--> statement-breakpoint
ALTER TABLE "uptime_rollup_state" ADD CONSTRAINT "uptime_rollup_state_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uptime_rollups_portal_idx" ON "uptime_rollups" USING btree ("tenant_id","portal_id","day");--> statement-breakpoint
CREATE INDEX "periods_tenant_started_idx" ON "device_status_periods" USING btree ("tenant_id","started_at");--> statement-breakpoint
CREATE INDEX "periods_tenant_ended_idx" ON "device_status_periods" USING btree ("tenant_id","ended_at");