CREATE TABLE "device_order_versions" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "devices_list_name_idx";--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "name_key" text GENERATED ALWAYS AS (lower(name)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_list_name_idx" ON "devices" USING btree ("tenant_id","name_key","id") WHERE "devices"."removed_at" is null;--> statement-breakpoint
-- Device order versions (schema/counts.ts): bumped per tenant whenever its devices' name order may have
-- changed, once per transaction (its readers see all of its changes at once; a row this transaction already
-- bumped has it as xmin). Row by row on insert and update, so that ingestion's statements, which name
-- `devices` in an INSERT that usually adds nothing and an UPDATE that sets every reported name, pay for no
-- trigger call: a heartbeat or a flip never passes the WHEN (measured: a statement-level insert trigger cost
-- one-device ingestion about 10 microseconds of the database thread per message). Deletes are rare: set-based.
CREATE FUNCTION "device_order_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    INSERT INTO device_order_versions AS v (tenant_id, version) VALUES (NEW.tenant_id, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  ELSE
    INSERT INTO device_order_versions AS v (tenant_id, version)
    SELECT DISTINCT tenant_id, 1 FROM old_rows ORDER BY 1
    ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1 WHERE v.xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "device_order_insert" AFTER INSERT ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "device_order_versions_bump"();
--> statement-breakpoint
CREATE TRIGGER "device_order_delete" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_order_versions_bump"();
--> statement-breakpoint
CREATE TRIGGER "device_order_update" AFTER UPDATE OF "name", "removed_at" ON "devices"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.removed_at IS DISTINCT FROM NEW.removed_at)
  EXECUTE FUNCTION "device_order_versions_bump"();
