-- Notification channels and their deliveries (docs/notifications.md).
CREATE TABLE "notification_channels" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"target_enc" text NOT NULL,
	"secret_enc" text,
	"to_admins" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"events" text[] NOT NULL,
	"portal_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"delay_minutes" integer DEFAULT 5 NOT NULL,
	"repeat_minutes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "notification_channels_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"channel_id" integer NOT NULL,
	"alert_id" integer,
	"event" text NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim_token" text,
	"last_error" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_tenant_id_channel_id_notification_channels_tenant_id_id_fk" FOREIGN KEY ("tenant_id","channel_id") REFERENCES "public"."notification_channels"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_channels_id_idx" ON "notification_channels" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_announce_key" ON "notification_deliveries" USING btree ("tenant_id","channel_id","alert_id","event","seq");--> statement-breakpoint
CREATE INDEX "notification_deliveries_id_idx" ON "notification_deliveries" USING btree ("id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_list_idx" ON "notification_deliveries" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_deliveries_alert_idx" ON "notification_deliveries" USING btree ("tenant_id","alert_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE "notification_deliveries"."status" = 'pending';