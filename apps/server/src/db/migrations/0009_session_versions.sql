-- Access ends at once on revocation (docs/auth.md): the user's session version, carried by access tokens
-- and stream tickets, and the session (refresh family) a stream ticket was asked for.
ALTER TABLE "stream_tickets" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_tickets" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;