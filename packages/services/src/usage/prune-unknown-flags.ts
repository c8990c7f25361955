import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";

/** Unknown flags are listed, and kept, for this long after they were last reported (as in Unleash). */
export const UNKNOWN_FLAGS_WINDOW_HOURS = 24;
/** The most rows kept; the least recently reported go first (docs/usage.md#unknown-flags). */
export const MAX_UNKNOWN_FLAGS = 1000;

/**
 * Housekeeping's pass over the unknown flags: deletes those not reported within the window, then
 * all but the MAX_UNKNOWN_FLAGS most recently reported. Returns how many rows it deleted.
 */
export async function pruneUnknownFlags(db: Kysely<Database>, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - UNKNOWN_FLAGS_WINDOW_HOURS * 3_600_000);
  const old = await db.deleteFrom("unknown_flags").where("seen_at", "<", since).executeTakeFirst();
  const { rows } = await sql<{ deleted: string }>`
    with surplus as (
      select name, app_name, environment from unknown_flags
      order by seen_at desc, name, app_name, environment
      offset ${MAX_UNKNOWN_FLAGS}
    ), gone as (
      delete from unknown_flags u using surplus s
      where u.name = s.name and u.app_name = s.app_name and u.environment = s.environment
      returning 1
    )
    select count(*) as deleted from gone`.execute(db);
  return Number(old.numDeletedRows) + Number(rows[0]?.deleted ?? 0);
}
