-- A status flip becomes a HOT update (no index of devices names status); the offline devices are read
-- through their open offline periods instead (schema/monitoring.ts, modules/devices/offline-devices.ts).
DROP INDEX "devices_portal_status_idx";--> statement-breakpoint
DROP INDEX "devices_tenant_status_idx";--> statement-breakpoint
DROP INDEX "devices_offline_idx";--> statement-breakpoint
CREATE INDEX "periods_open_offline_idx" ON "device_status_periods" USING btree ("tenant_id","portal_id","device_id","started_at") WHERE "device_status_periods"."ended_at" is null and "device_status_periods"."status" = 0;