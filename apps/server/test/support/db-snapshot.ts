import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";

// The login throttle must remember a refused login: its tables are the ones a rejection may change.
const CHANGES_ON_REJECTION = new Set(["login_failures", "login_streaks"]);

/** Row counts of every table and the last event id: what a rejected request must leave as it was. */
export async function dbSnapshot(db: Kysely<Database>): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  const counted = tables.rows.map((t) => t.name).filter((t) => !CHANGES_ON_REJECTION.has(t));
  const selects = counted.map((t) => sql`(select count(*) from ${sql.table(t)})::int as ${sql.ref(t)}`);
  const { rows } = await sql<
    Record<string, number>
  >`select ${sql.join(selects)}, (select coalesce(max(id), 0) from events)::int as last_event_id`.execute(db);
  return rows[0] as Record<string, number>;
}
