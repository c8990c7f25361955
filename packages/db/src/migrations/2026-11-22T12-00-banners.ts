import { type Kysely, sql } from "kysely";

// Migrations take Kysely<any>: they are frozen in time and must not follow later type changes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("banners")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("variant", "text", (c) => c.notNull().defaultTo("info"))
    .addColumn("sticky", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("icon", "text")
    .addColumn("link", "text")
    .addColumn("link_text", "text")
    .addColumn("dialog_title", "text")
    .addColumn("dialog", "text")
    // The create service sets it under a lock so that it grows with the id; the default serves
    // rows written by hand.
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    // The service checks these too; the constraints keep hand-written rows honest.
    .addCheckConstraint("banners_message_not_empty", sql`message <> ''`)
    .addCheckConstraint("banners_variant_known", sql`variant in ('info', 'warning', 'error', 'success')`)
    .execute();
  // Creating a banner reads the latest created_at to keep it increasing.
  await db.schema.createIndex("banners_created_at_idx").on("banners").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("banners").execute();
}
