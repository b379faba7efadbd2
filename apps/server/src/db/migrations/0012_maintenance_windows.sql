CREATE TABLE "maintenance_windows" (
	"tenant_id" integer NOT NULL,
	"id" serial NOT NULL,
	"portal_id" integer NOT NULL,
	"device_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"recurrence" smallint DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by_user_id" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_windows_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "maintenance_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "maintenance_windows_id_idx" ON "maintenance_windows" USING btree ("id");--> statement-breakpoint
CREATE INDEX "maintenance_windows_portal_idx" ON "maintenance_windows" USING btree ("tenant_id","portal_id","starts_at");--> statement-breakpoint
CREATE INDEX "devices_maintenance_idx" ON "devices" USING btree ("tenant_id","id") WHERE "devices"."maintenance_since" is not null;--> statement-breakpoint
-- The occurrence of a maintenance window that started last at or before `w_at` (docs/maintenance.md):
-- recurrence 0 the window itself, 1 daily, 2 weekly, repeating its local wall-clock start and end in the
-- time zone `w_tz` (so 22:00-06:00 stays 22:00-06:00 across a DST change). Occurrences never overlap (a
-- daily window lasts at most a day, a weekly one at most 7), so this one is the only one that can cover `w_at`.
CREATE FUNCTION maintenance_occurrence(w_starts timestamptz, w_ends timestamptz, w_recurrence smallint, w_tz text, w_at timestamptz)
RETURNS TABLE (occ_start timestamptz, occ_end timestamptz)
LANGUAGE sql STABLE AS $$
  select o.s, o.e from (
    select ((w_starts at time zone w_tz) + ks.k * st.step) at time zone w_tz as s,
           ((w_ends at time zone w_tz) + ks.k * st.step) at time zone w_tz as e
      from (select case when w_recurrence = 1 then interval '1 day' else interval '7 days' end as step) st
      cross join lateral (
        select floor(extract(epoch from ((w_at at time zone w_tz) - (w_starts at time zone w_tz))) / extract(epoch from st.step))::int as k0
      ) k0
      cross join lateral (values (k0.k0 + 1), (k0.k0), (k0.k0 - 1)) as ks(k)
     where w_recurrence in (1, 2) and ks.k >= 0
    union all
    select w_starts, w_ends where w_recurrence = 0
  ) o
  where o.s <= w_at
  order by o.s desc
  limit 1
$$;
