CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"blocked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"transport" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_tickets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"free_count" integer DEFAULT 0 NOT NULL,
	"free_tier" boolean DEFAULT false NOT NULL,
	"discount" real DEFAULT 0 NOT NULL,
	"goal_score" real DEFAULT 95 NOT NULL,
	"heartbeat_timeout" integer DEFAULT 10 NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"password_hash" text,
	"email_verified_at" timestamp with time zone,
	"deactivated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_status_periods" (
	"tenant_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"device_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "device_status_periods_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"device_type" smallint NOT NULL,
	"device_model" text DEFAULT '' NOT NULL,
	"status" smallint NOT NULL,
	"last_report_at" timestamp with time zone NOT NULL,
	"last_online" timestamp with time zone,
	"status_since" timestamp with time zone NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"open_case_id" integer,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "late_device_reports" (
	"tenant_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"device_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "late_device_reports_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "portals" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"api_key_enc" text NOT NULL,
	"webhook_secret_enc" text NOT NULL,
	"previous_webhook_secret_enc" text,
	"previous_secret_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"tenant_id" integer NOT NULL,
	"portal_id" integer NOT NULL,
	"webhook_id" text NOT NULL,
	"device_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_messages_tenant_id_portal_id_webhook_id_pk" PRIMARY KEY("tenant_id","portal_id","webhook_id")
);
--> statement-breakpoint
CREATE TABLE "alert_devices" (
	"tenant_id" integer NOT NULL,
	"alert_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "alert_devices_tenant_id_alert_id_device_id_pk" PRIMARY KEY("tenant_id","alert_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"alert_type" smallint NOT NULL,
	"offline_count" integer DEFAULT 0 NOT NULL,
	"license_id" integer,
	"critical" smallint DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "case_devices" (
	"tenant_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "case_devices_tenant_id_case_id_device_id_pk" PRIMARY KEY("tenant_id","case_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"case_type" smallint DEFAULT 0 NOT NULL,
	"offline_count" integer DEFAULT 0 NOT NULL,
	"alert_id" integer,
	"created_by" integer,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cases_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"case_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comments_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"device_type" smallint NOT NULL,
	"device_count" integer NOT NULL,
	"terms" smallint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licenses_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"period" smallint NOT NULL,
	"config" smallint[] NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "billings" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"provider" text NOT NULL,
	"session_id" text NOT NULL,
	"subscription_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"tick" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_runs_job_tick_pk" PRIMARY KEY("job","tick")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_tickets" ADD CONSTRAINT "stream_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_status_periods" ADD CONSTRAINT "device_status_periods_tenant_id_device_id_devices_tenant_id_id_fk" FOREIGN KEY ("tenant_id","device_id") REFERENCES "public"."devices"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_portal_id_portals_tenant_id_id_fk" FOREIGN KEY ("tenant_id","portal_id") REFERENCES "public"."portals"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portals" ADD CONSTRAINT "portals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_devices" ADD CONSTRAINT "alert_devices_tenant_id_alert_id_alerts_tenant_id_id_fk" FOREIGN KEY ("tenant_id","alert_id") REFERENCES "public"."alerts"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_devices" ADD CONSTRAINT "alert_devices_tenant_id_device_id_devices_tenant_id_id_fk" FOREIGN KEY ("tenant_id","device_id") REFERENCES "public"."devices"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_tenant_id_portal_id_portals_tenant_id_id_fk" FOREIGN KEY ("tenant_id","portal_id") REFERENCES "public"."portals"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_devices" ADD CONSTRAINT "case_devices_tenant_id_case_id_cases_tenant_id_id_fk" FOREIGN KEY ("tenant_id","case_id") REFERENCES "public"."cases"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_devices" ADD CONSTRAINT "case_devices_tenant_id_device_id_devices_tenant_id_id_fk" FOREIGN KEY ("tenant_id","device_id") REFERENCES "public"."devices"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_tenant_id_portal_id_portals_tenant_id_id_fk" FOREIGN KEY ("tenant_id","portal_id") REFERENCES "public"."portals"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_tenant_id_case_id_cases_tenant_id_id_fk" FOREIGN KEY ("tenant_id","case_id") REFERENCES "public"."cases"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_tenant_id_portal_id_portals_tenant_id_id_fk" FOREIGN KEY ("tenant_id","portal_id") REFERENCES "public"."portals"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_tenant_id_portal_id_portals_tenant_id_id_fk" FOREIGN KEY ("tenant_id","portal_id") REFERENCES "public"."portals"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billings" ADD CONSTRAINT "billings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_tokens_hash_key" ON "one_time_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "one_time_tokens_user_idx" ON "one_time_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_key" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_tenant_idx" ON "users" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "periods_device_idx" ON "device_status_periods" USING btree ("tenant_id","device_id","started_at");--> statement-breakpoint
CREATE INDEX "periods_portal_idx" ON "device_status_periods" USING btree ("tenant_id","portal_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_external_key" ON "devices" USING btree ("tenant_id","portal_id","external_id");--> statement-breakpoint
CREATE INDEX "devices_id_idx" ON "devices" USING btree ("id");--> statement-breakpoint
CREATE INDEX "devices_portal_status_idx" ON "devices" USING btree ("tenant_id","portal_id","status");--> statement-breakpoint
CREATE INDEX "devices_tenant_status_idx" ON "devices" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "devices_tenant_type_idx" ON "devices" USING btree ("tenant_id","device_type");--> statement-breakpoint
CREATE INDEX "devices_tenant_name_idx" ON "devices" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "devices_last_report_idx" ON "devices" USING btree ("status","last_report_at");--> statement-breakpoint
CREATE INDEX "devices_open_case_idx" ON "devices" USING btree ("tenant_id","open_case_id");--> statement-breakpoint
CREATE INDEX "late_reports_device_idx" ON "late_device_reports" USING btree ("tenant_id","device_id");--> statement-breakpoint
CREATE INDEX "portals_id_idx" ON "portals" USING btree ("id");--> statement-breakpoint
CREATE INDEX "portals_tenant_name_idx" ON "portals" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "webhook_messages_received_idx" ON "webhook_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "alert_devices_device_idx" ON "alert_devices" USING btree ("tenant_id","device_id");--> statement-breakpoint
CREATE INDEX "alerts_id_idx" ON "alerts" USING btree ("id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_created_idx" ON "alerts" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "alerts_portal_idx" ON "alerts" USING btree ("tenant_id","portal_id","alert_type");--> statement-breakpoint
CREATE INDEX "case_devices_device_idx" ON "case_devices" USING btree ("tenant_id","device_id");--> statement-breakpoint
CREATE INDEX "cases_id_idx" ON "cases" USING btree ("id");--> statement-breakpoint
CREATE INDEX "cases_portal_idx" ON "cases" USING btree ("tenant_id","portal_id");--> statement-breakpoint
CREATE INDEX "cases_tenant_type_idx" ON "cases" USING btree ("tenant_id","case_type");--> statement-breakpoint
CREATE INDEX "cases_tenant_created_idx" ON "cases" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_id_idx" ON "comments" USING btree ("id");--> statement-breakpoint
CREATE INDEX "comments_case_idx" ON "comments" USING btree ("tenant_id","case_id");--> statement-breakpoint
CREATE INDEX "licenses_id_idx" ON "licenses" USING btree ("id");--> statement-breakpoint
CREATE INDEX "licenses_portal_idx" ON "licenses" USING btree ("tenant_id","portal_id");--> statement-breakpoint
CREATE INDEX "licenses_end_idx" ON "licenses" USING btree ("end_date");--> statement-breakpoint
CREATE INDEX "reports_id_idx" ON "reports" USING btree ("id");--> statement-breakpoint
CREATE INDEX "reports_tenant_created_idx" ON "reports" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "billings_session_idx" ON "billings" USING btree ("session_id");