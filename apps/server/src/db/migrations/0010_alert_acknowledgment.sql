-- Alerts people can rely on (docs/alerts.md): acknowledgment, and one open Device Offline alert per portal.
ALTER TABLE "alerts" ADD COLUMN "acked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acked_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acked_by_name" text;--> statement-breakpoint
-- Fold the several open Device Offline alerts a portal could hold before into its oldest one: the oldest
-- takes the others' devices, cases opened from the others point to it, and the others are removed.
CREATE TEMPORARY TABLE "alert_folds" ON COMMIT DROP AS
  SELECT tenant_id, id, keeper FROM (
    SELECT tenant_id, id, min(id) OVER (PARTITION BY tenant_id, portal_id) AS keeper
      FROM alerts WHERE alert_type = 0 AND resolved_at IS NULL) r
   WHERE id <> keeper;--> statement-breakpoint
INSERT INTO alert_devices (tenant_id, alert_id, device_id)
  SELECT f.tenant_id, f.keeper, ad.device_id FROM alert_folds f
    JOIN alert_devices ad ON ad.tenant_id = f.tenant_id AND ad.alert_id = f.id
  ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE cases c SET alert_id = f.keeper FROM alert_folds f WHERE c.tenant_id = f.tenant_id AND c.alert_id = f.id;--> statement-breakpoint
DELETE FROM alert_devices ad USING alert_folds f WHERE ad.tenant_id = f.tenant_id AND ad.alert_id = f.id;--> statement-breakpoint
DELETE FROM alerts a USING alert_folds f WHERE a.tenant_id = f.tenant_id AND a.id = f.id;--> statement-breakpoint
UPDATE alerts a SET offline_count = (SELECT count(*) FROM alert_devices ad WHERE ad.tenant_id = a.tenant_id AND ad.alert_id = a.id)
 WHERE a.alert_type = 0 AND a.resolved_at IS NULL AND a.id IN (SELECT keeper FROM alert_folds);
