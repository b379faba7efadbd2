import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are stored with time zone and handled as Date in code. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => tstz('created_at').notNull().defaultNow();
export const updatedAt = () => tstz('updated_at').notNull().defaultNow();
/**
 * Every tenant-scoped table leads with tenant_id and puts it in its primary key,
 * unique constraints and foreign keys (docs/decisions.md 13: distributable by tenant).
 * Row-level security is applied to every table that has this column (db/security.ts).
 */
export const tenantId = () => integer('tenant_id').notNull();

/** A 64-bit transaction id (PostgreSQL's xid8), handled as its decimal text. */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
