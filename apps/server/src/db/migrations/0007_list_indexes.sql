DROP INDEX "devices_list_name_idx";--> statement-breakpoint
CREATE INDEX "alerts_open_offline_idx" ON "alerts" USING btree ("tenant_id","id") WHERE "alerts"."alert_type" = 0 and "alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "devices_list_name_idx" ON "devices" USING btree ("tenant_id",lower("name"),"id","name") WHERE "devices"."removed_at" is null;