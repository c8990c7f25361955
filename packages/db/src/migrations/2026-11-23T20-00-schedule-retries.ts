import type { Kysely } from "kysely";

// A scheduled apply that meets a transient failure (a lost connection, a statement timeout) is
// tried again later instead of failing for good: the row counts the attempts and says when the
// next one may start, so that every instance sharing the database backs off the same way.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("change_requests")
    .addColumn("schedule_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("schedule_retry_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("change_requests").dropColumn("schedule_retry_at").dropColumn("schedule_attempts").execute();
}
