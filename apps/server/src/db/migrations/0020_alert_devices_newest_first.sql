DROP INDEX "alert_devices_device_idx";--> statement-breakpoint
CREATE INDEX "alert_devices_device_idx" ON "alert_devices" USING btree ("tenant_id","device_id","alert_id");