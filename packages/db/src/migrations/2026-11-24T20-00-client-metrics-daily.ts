import type { Kysely } from "kysely";

// SDK metrics older than two days are kept per day instead of per hour, and days only for a while
// (docs/sdk-protocols.md#metrics-storage): the daily tables beside the hourly ones, and indexes on
// the time columns, by which housekeeping finds what to roll up and what to delete.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("client_metrics_daily")
    .addColumn("feature_name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("day", "timestamptz", (c) => c.notNull())
    .addColumn("yes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("no", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("client_metrics_daily_pk", ["feature_name", "environment", "app_name", "day"])
    .execute();
  await db.schema
    .createTable("client_metric_variants_daily")
    .addColumn("feature_name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("day", "timestamptz", (c) => c.notNull())
    .addColumn("variant", "text", (c) => c.notNull())
    .addColumn("count", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("client_metric_variants_daily_pk", ["feature_name", "environment", "app_name", "day", "variant"])
    .execute();
  await db.schema.createIndex("client_metrics_hour_idx").on("client_metrics").column("hour").execute();
  await db.schema.createIndex("client_metric_variants_hour_idx").on("client_metric_variants").column("hour").execute();
  await db.schema.createIndex("client_metrics_daily_day_idx").on("client_metrics_daily").column("day").execute();
  await db.schema.createIndex("client_metric_variants_daily_day_idx").on("client_metric_variants_daily").column("day").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("client_metric_variants_hour_idx").execute();
  await db.schema.dropIndex("client_metrics_hour_idx").execute();
  await db.schema.dropTable("client_metric_variants_daily").execute();
  await db.schema.dropTable("client_metrics_daily").execute();
}
