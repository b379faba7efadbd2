-- The marks of the current hour on PostgreSQL (docs/uptime-rollup.md "Marks of the current hour"): a mark
-- must find every period its snapshot did not see, by an id bound and by the transaction that wrote it.
-- written_xid: the inserting transaction, kept when the period is closed (xmin is not: closing moves the
-- row into its month's partition). The periods already there get '0', which every snapshot sees; added
-- with that constant first so that no partition is rewritten, then the default for new rows.
ALTER TABLE "device_status_periods" ADD COLUMN "written_xid" "xid8" DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_status_periods" ALTER COLUMN "written_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
-- A period's id is drawn after its transaction has an id (the CASE evaluates its condition first): a
-- transaction that takes its id after a mark's anchor then draws every period id above the anchor's.
ALTER TABLE "device_status_periods" ALTER COLUMN "id" SET DEFAULT case when pg_current_xact_id() is not null then nextval('device_status_periods_id_seq') end;
