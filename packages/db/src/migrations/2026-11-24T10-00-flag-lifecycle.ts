import { type Kysely, sql } from "kysely";

// A flag's daily life: archived (kept, served to nobody), stale (marked by a user) and potentially
// stale (older than its type's lifetime, found by housekeeping), when SDKs last reported it, its
// lifecycle stages, and tags. Unleash's names where it has them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("features")
    .addColumn("archived_at", "timestamptz")
    .addColumn("stale", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("potentially_stale", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("last_seen_at", "timestamptz")
    .execute();
  // What SDKs are served and what a project lists are the flags that are not archived.
  await db.schema
    .createIndex("features_live_project_name_idx")
    .on("features")
    .columns(["project_id", "name"])
    .where(sql.ref("archived_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("features_archived_idx")
    .on("features")
    .column("archived_at")
    .where(sql.ref("archived_at"), "is not", null)
    .execute();
  await db.schema.alterTable("feature_environments").addColumn("last_seen_at", "timestamptz").execute();

  // Feature types and how long a flag of each is expected to live (null: permanent).
  await db.schema
    .createTable("feature_types")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("lifetime_days", "integer", (c) => c.check(sql`lifetime_days is null or lifetime_days >= 0`))
    .execute();
  await db
    .insertInto("feature_types")
    .values([
      { id: "release", name: "Release", description: "Release feature toggles are used to release new features.", lifetime_days: 40 },
      {
        id: "experiment",
        name: "Experiment",
        description: "Experiment feature toggles are used to test and verify multiple different versions of a feature.",
        lifetime_days: 40,
      },
      {
        id: "operational",
        name: "Operational",
        description: "Operational feature toggles are used to control aspects of a rollout.",
        lifetime_days: 7,
      },
      {
        id: "kill-switch",
        name: "Kill switch",
        description: "Kill switch feature toggles are used to quickly turn on or off critical functionality in your system.",
        lifetime_days: null,
      },
      {
        id: "permission",
        name: "Permission",
        description: "Permission feature toggles are used to control permissions in your system.",
        lifetime_days: null,
      },
    ])
    .execute();

  // Each stage a flag entered (initial, pre-live, live, completed, archived), with when; one row per stage.
  await db.schema
    .createTable("feature_lifecycles")
    .addColumn("feature_name", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("status", "text")
    .addColumn("status_value", "text")
    .addColumn("entered_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("feature_lifecycles_pk", ["feature_name", "stage"])
    .addCheckConstraint("feature_lifecycles_stage", sql`stage in ('initial', 'pre-live', 'live', 'completed', 'archived')`)
    .execute();

  // Tags: a type (Unleash seeds `simple`), its values, and which flags carry which.
  await db.schema
    .createTable("tag_types")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("description", "text")
    .addColumn("icon", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.insertInto("tag_types").values({ name: "simple", description: "Used to simplify filtering of features", icon: "#" }).execute();
  await db.schema
    .createTable("tags")
    .addColumn("type", "text", (c) => c.notNull().references("tag_types.name").onDelete("cascade"))
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("tags_pk", ["type", "value"])
    .execute();
  await db.schema
    .createTable("feature_tags")
    .addColumn("feature_name", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("tag_type", "text", (c) => c.notNull())
    .addColumn("tag_value", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("feature_tags_pk", ["feature_name", "tag_type", "tag_value"])
    .addForeignKeyConstraint("feature_tags_tag_fk", ["tag_type", "tag_value"], "tags", ["type", "value"], (c) => c.onDelete("cascade"))
    .execute();
  // Flags by tag (search's `tag` filter) and the foreign key checked from this side when a tag goes.
  await db.schema.createIndex("feature_tags_tag_idx").on("feature_tags").columns(["tag_type", "tag_value"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("feature_tags").execute();
  await db.schema.dropTable("tags").execute();
  await db.schema.dropTable("tag_types").execute();
  await db.schema.dropTable("feature_lifecycles").execute();
  await db.schema.dropTable("feature_types").execute();
  await db.schema.alterTable("feature_environments").dropColumn("last_seen_at").execute();
  await db.schema.dropIndex("features_archived_idx").execute();
  await db.schema.dropIndex("features_live_project_name_idx").execute();
  await db.schema
    .alterTable("features")
    .dropColumn("last_seen_at")
    .dropColumn("potentially_stale")
    .dropColumn("stale")
    .dropColumn("archived_at")
    .execute();
}
