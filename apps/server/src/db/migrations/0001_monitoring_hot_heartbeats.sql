DROP INDEX "devices_last_report_idx";--> statement-breakpoint
-- Room on each page so the heartbeat update of an unindexed column stays a HOT update (no index writes).
ALTER TABLE "devices" SET (fillfactor = 80);
