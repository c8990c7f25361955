import { type Kysely, sql } from "kysely";

// What SDKs evaluate: strategies per feature and environment, custom strategy types, segments,
// dependencies, and the counts SDKs report back. Every change to what the client API serves
// tells every instance at commit through NOTIFY, so their snapshots are rebuilt.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("features")
    .addColumn("impression_data", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();

  // Custom strategy types: the built-in ones are known to the code and never stored.
  await db.schema
    .createTable("strategy_types")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("description", "text")
    .addColumn("parameters", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("feature_strategies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("feature_name", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("environment_name", "text", (c) => c.notNull().references("environments.name").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("disabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("constraints", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("parameters", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("variants", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // An environment's strategies of one feature, in the order they are evaluated.
  await db.schema
    .createIndex("feature_strategies_feature_env_idx")
    .on("feature_strategies")
    .columns(["feature_name", "environment_name", "sort_order"])
    .execute();
  // The client API reads one environment's strategies of every feature; deleting an environment checks this side.
  await db.schema.createIndex("feature_strategies_environment_idx").on("feature_strategies").column("environment_name").execute();

  await db.schema
    .createTable("segments")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text")
    .addColumn("project_id", "text", (c) => c.references("projects.id").onDelete("cascade"))
    .addColumn("constraints", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("segments_project_idx").on("segments").column("project_id").execute();

  // A segment in use cannot be deleted: the foreign key restricts, the service says so first.
  await db.schema
    .createTable("feature_strategy_segments")
    .addColumn("strategy_id", "text", (c) => c.notNull().references("feature_strategies.id").onDelete("cascade"))
    .addColumn("segment_id", "integer", (c) => c.notNull().references("segments.id").onDelete("restrict"))
    .addPrimaryKeyConstraint("feature_strategy_segments_pk", ["strategy_id", "segment_id"])
    .execute();
  await db.schema.createIndex("feature_strategy_segments_segment_idx").on("feature_strategy_segments").column("segment_id").execute();

  await db.schema
    .createTable("feature_dependencies")
    .addColumn("child", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("parent", "text", (c) => c.notNull().references("features.name").onDelete("cascade"))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("variants", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addPrimaryKeyConstraint("feature_dependencies_pk", ["child", "parent"])
    .execute();
  // Whether a feature is a parent (one level deep, no cycles) is asked from this side.
  await db.schema.createIndex("feature_dependencies_parent_idx").on("feature_dependencies").column("parent").execute();

  await db.schema
    .createTable("client_instances")
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("instance_id", "text", (c) => c.notNull())
    .addColumn("sdk_version", "text")
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("strategies", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("started", "timestamptz", (c) => c.notNull())
    .addColumn("interval", "integer", (c) => c.notNull())
    .addColumn("last_seen", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("client_instances_pk", ["app_name", "instance_id"])
    .execute();

  // Counts are summed per feature, environment, application and hour (docs/sdk-protocols.md#metrics).
  await db.schema
    .createTable("client_metrics")
    .addColumn("feature_name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("yes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("no", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("client_metrics_pk", ["feature_name", "environment", "app_name", "hour"])
    .execute();
  // Variant counts in rows of their own, so that a batch adds to them with one plain upsert.
  await db.schema
    .createTable("client_metric_variants")
    .addColumn("feature_name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("variant", "text", (c) => c.notNull())
    .addColumn("count", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("client_metric_variants_pk", ["feature_name", "environment", "app_name", "hour", "variant"])
    .execute();

  // One notice per statement and table (Postgres folds equal ones in a transaction into one).
  await sql`
    create function vexil_notify_flag_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('vexil_flag_changes', tg_table_name);
      return null;
    end
    $$`.execute(db);
  await sql`create trigger features_flag_change after insert or update or delete or truncate on features
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger feature_environments_flag_change after insert or update or delete or truncate on feature_environments
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger feature_strategies_flag_change after insert or update or delete or truncate on feature_strategies
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger feature_strategy_segments_flag_change after insert or update or delete or truncate on feature_strategy_segments
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger segments_flag_change after insert or update or delete or truncate on segments
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger feature_dependencies_flag_change after insert or update or delete or truncate on feature_dependencies
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger projects_flag_change after insert or update or delete or truncate on projects
            for each statement execute function vexil_notify_flag_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger features_flag_change on features`.execute(db);
  await sql`drop trigger feature_environments_flag_change on feature_environments`.execute(db);
  await sql`drop trigger feature_strategies_flag_change on feature_strategies`.execute(db);
  await sql`drop trigger feature_strategy_segments_flag_change on feature_strategy_segments`.execute(db);
  await sql`drop trigger segments_flag_change on segments`.execute(db);
  await sql`drop trigger feature_dependencies_flag_change on feature_dependencies`.execute(db);
  await sql`drop trigger projects_flag_change on projects`.execute(db);
  await sql`drop function vexil_notify_flag_change()`.execute(db);
  for (const table of [
    "client_metric_variants",
    "client_metrics",
    "client_instances",
    "feature_dependencies",
    "feature_strategy_segments",
    "segments",
    "feature_strategies",
    "strategy_types",
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable("features").dropColumn("impression_data").execute();
}
