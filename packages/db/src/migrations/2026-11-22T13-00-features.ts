import { type Kysely, sql } from "kysely";

// Migrations take Kysely<any>: they are frozen in time and must not follow later type changes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("features")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("description", "text")
    .addColumn("type", "text", (c) => c.notNull().defaultTo("release"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Listing a project's features, in name order, without reading the others.
  await db.schema.createIndex("features_project_name_idx").on("features").columns(["project_id", "name"]).execute();

  // One row per feature and environment, so that writing one environment's variants can never
  // touch another's. Rows appear on the first write; reads treat a missing row as "no variants".
  await db.schema
    .createTable("feature_environments")
    .addColumn("feature_name", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("environment_name", "text", (c) => c.notNull().references("environments.name").onDelete("cascade"))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("variants", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addPrimaryKeyConstraint("feature_environments_pk", ["feature_name", "environment_name"])
    .addCheckConstraint("feature_environments_variants_array", sql`jsonb_typeof(variants) = 'array'`)
    .execute();
  // The foreign key to environments is checked from this side when an environment is deleted.
  await db.schema.createIndex("feature_environments_environment_idx").on("feature_environments").column("environment_name").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("feature_environments").execute();
  await db.schema.dropTable("features").execute();
}
