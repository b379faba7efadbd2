ALTER TABLE "alert_devices" DROP CONSTRAINT "alert_devices_tenant_id_device_id_devices_tenant_id_id_fk";
