CREATE TABLE "portal_counts" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"live" integer NOT NULL
);
--> statement-breakpoint
-- Kept live portal count per tenant (schema/counts.ts portalCounts): -1 for a live portal that goes
-- (deleted, or its row removed), +1 for one that comes (created, or its deletion undone).
CREATE FUNCTION "portal_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    INSERT INTO portal_counts AS c (tenant_id, live) VALUES (OLD.tenant_id, -1)
    ON CONFLICT (tenant_id) DO UPDATE SET live = c.live - 1;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    INSERT INTO portal_counts AS c (tenant_id, live) VALUES (NEW.tenant_id, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET live = c.live + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "portal_counts_insert" AFTER INSERT ON "portals" FOR EACH ROW EXECUTE FUNCTION "portal_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "portal_counts_update" AFTER UPDATE OF "deleted_at", "tenant_id" ON "portals" FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.tenant_id <> NEW.tenant_id) EXECUTE FUNCTION "portal_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "portal_counts_delete" AFTER DELETE ON "portals" FOR EACH ROW EXECUTE FUNCTION "portal_counts_apply"();
--> statement-breakpoint
INSERT INTO portal_counts (tenant_id, live) SELECT tenant_id, count(*)::int FROM portals WHERE deleted_at IS NULL GROUP BY tenant_id;
