import { type Kysely, sql } from "kysely";
import type { Database } from "./database.ts";

/**
 * Gathers the planner's statistics of `tables` now, or of the whole database when none are named,
 * for a writer that has just grown them by many rows at once
 * (docs/search.md#statistics-after-bulk-writes). Until their next ANALYZE (autovacuum's, a minute
 * or more later where it runs, never where it is off), every connection keeps the plans it made
 * while they were small, a sequential scan of a table that is now large among them; ANALYZE makes
 * every connection plan them again. A table the role may not analyze (it neither owns it nor, from
 * Postgres 17, holds MAINTAIN on it) is skipped by Postgres with a warning, not an error.
 */
export async function analyzeTables(
  db: Kysely<Database>,
  tables?: readonly [keyof Database & string, ...(keyof Database & string)[]],
): Promise<void> {
  await (tables ? sql`analyze ${sql.join(tables.map((table) => sql.table(table)))}` : sql`analyze`).execute(db);
}
