import { type Kysely, sql } from "kysely";

// Migrations take Kysely<any>: they are frozen in time and must not follow later type changes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("environments")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("project_environments")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("environment_name", "text", (c) => c.notNull().references("environments.name").onDelete("cascade"))
    .addPrimaryKeyConstraint("project_environments_pk", ["project_id", "environment_name"])
    .execute();
  await db.schema.createIndex("project_environments_environment_idx").on("project_environments").column("environment_name").execute();

  await db.schema
    .createTable("events")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_by_user_id", "integer")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("project", "text")
    .addColumn("environment", "text")
    .addColumn("feature_name", "text")
    .addColumn("data", "jsonb", (c) => c.notNull())
    .addColumn("pre_data", "jsonb")
    .execute();
  await db.schema.createIndex("events_type_idx").on("events").column("type").execute();
  await db.schema.createIndex("events_project_idx").on("events").column("project").execute();

  // The data a first start needs (docs/flag-model.md#first-start): one project with both environments.
  await db
    .insertInto("environments")
    .values([
      { name: "development", type: "development", sort_order: 100 },
      { name: "production", type: "production", sort_order: 200 },
    ])
    .execute();
  await db.insertInto("projects").values({ id: "default", name: "Default", description: "Default project" }).execute();
  await db
    .insertInto("project_environments")
    .values([
      { project_id: "default", environment_name: "development" },
      { project_id: "default", environment_name: "production" },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["events", "project_environments", "projects", "environments"]) {
    await db.schema.dropTable(table).execute();
  }
}
