CREATE TABLE "kept_window_tails" (
	"tenant_id" integer NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"portal_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kept_window_tails_portal_idx" ON "kept_window_tails" USING btree ("tenant_id","window_to","portal_id","started_at");--> statement-breakpoint
-- A base kept before its tail was cannot answer: the job keeps a new one with its tail at its next run (5 minutes); until then pages are scored from the rollup.
DELETE FROM "kept_window_state";
