import { type Kysely, sql } from "kysely";
import type { Database } from "./database.ts";

/**
 * The GIN indexes of `features` that substring search reads, as the migration
 * 2026-11-24T12-00-feature-search names them (absent where the server could not create pg_trgm).
 */
const SEARCHED_GIN_INDEXES = ["features_name_trgm_idx", "features_description_trgm_idx"];

/**
 * Moves the pending lists of the flags' substring-search indexes into the indexes themselves, which
 * otherwise waits for VACUUM: every search reads a pending list whole (docs/search.md#pending-list).
 * For a writer that has just updated many flags at once. Postgres allows it to the indexes' owner
 * (as VACUUM); an index that does not exist is skipped.
 */
export async function flushSearchPendingLists(db: Kysely<Database>): Promise<void> {
  await sql`select gin_clean_pending_list(i) from unnest(array[${sql.join(
    SEARCHED_GIN_INDEXES.map((name) => sql`to_regclass(${name})`),
  )}]) i where i is not null`.execute(db);
}
