import type { Kysely } from "kysely";

// Flags that SDKs asked for but that do not exist, per application and environment, with when they
// were last reported (docs/usage.md#unknown-flags). Housekeeping deletes the rows not seen for a day
// and keeps the newest ones only, so a flood of made-up names cannot grow the table without end.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("unknown_flags")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("seen_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("unknown_flags_pk", ["name", "app_name", "environment"])
    .execute();
  await db.schema.createIndex("unknown_flags_seen_at_idx").on("unknown_flags").column("seen_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("unknown_flags").execute();
}
