import { type Kysely, sql } from "kysely";

// Search looks up the open change requests of a page's flags by name (docs/search.md#open-change-requests).
// Where a few flags hold most changes, more of them than the default statistics keep as common
// values (100), Postgres takes every name for one of those flags and reads both tables whole for a
// page of flags that hold none. Kept up to 1,000 common names, it knows which names hold changes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table change_request_changes alter column feature_name set statistics 1000`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table change_request_changes alter column feature_name set statistics -1`.execute(db);
}
