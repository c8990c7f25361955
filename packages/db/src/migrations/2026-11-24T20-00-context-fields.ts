import { type Kysely, sql } from "kysely";

// The context fields that editors offer in constraints (Unleash's context_fields): the six built-in
// fields Unleash 8.2 seeds, with its descriptions and sort orders, then the ones users add
// (docs/context-fields.md).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("context_fields")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("description", "text")
    .addColumn("stickiness", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("legal_values", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db
    .insertInto("context_fields")
    .values([
      { name: "environment", description: "Allows you to constrain on application environment", sort_order: 0, stickiness: false },
      { name: "userId", description: "Allows you to constrain on userId", sort_order: 1, stickiness: false },
      { name: "appName", description: "Allows you to constrain on application name", sort_order: 2, stickiness: false },
      { name: "currentTime", description: "Allows you to constrain on date values", sort_order: 3, stickiness: false },
      { name: "sessionId", description: "Allows you to constrain on sessionId", sort_order: 4, stickiness: true },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("context_fields").execute();
}
