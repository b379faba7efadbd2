CREATE TABLE "kept_window_state" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"period_id_mark" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kept_windows" (
	"tenant_id" integer NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"portal_id" integer NOT NULL,
	"online_us" bigint NOT NULL,
	"observed_us" bigint NOT NULL,
	"online_at_to" integer NOT NULL,
	"observed_at_to" integer NOT NULL,
	"online_at_from" integer NOT NULL,
	"observed_at_from" integer NOT NULL,
	CONSTRAINT "kept_windows_tenant_id_window_to_portal_id_pk" PRIMARY KEY("tenant_id","window_to","portal_id")
);
--> statement-breakpoint
ALTER TABLE "kept_window_state" ADD CONSTRAINT "kept_window_state_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;