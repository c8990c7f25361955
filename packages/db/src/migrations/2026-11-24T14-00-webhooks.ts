import { type Kysely, sql } from "kysely";

// Integrations (Unleash's addons) and their outbox (docs/webhooks.md#the-outbox). A delivery row is
// written in the transaction of the event it carries, so that the two are stored together or not
// at all; each instance claims due rows with FOR UPDATE SKIP LOCKED, and a trigger wakes every
// instance at commit through NOTIFY.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("addons")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("parameters", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("events", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("projects", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("environments", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("signing_secret", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("addons_provider_known", sql`provider in ('webhook', 'slack')`)
    .addCheckConstraint("addons_events_array", sql`jsonb_typeof(events) = 'array'`)
    .addCheckConstraint("addons_projects_array", sql`jsonb_typeof(projects) = 'array'`)
    .addCheckConstraint("addons_environments_array", sql`jsonb_typeof(environments) = 'array'`)
    .execute();

  await db.schema
    .createTable("addon_deliveries")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("addon_id", "integer", (c) => c.notNull().references("addons.id").onDelete("cascade"))
    .addColumn("event_id", "bigint", (c) => c.notNull().references("events.id").onDelete("cascade"))
    .addColumn("state", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addUniqueConstraint("addon_deliveries_once", ["addon_id", "event_id"])
    .addCheckConstraint("addon_deliveries_state_known", sql`state in ('pending', 'delivered', 'failed')`)
    .execute();
  // The workers' lookup: due pending rows in order.
  await sql`create index addon_deliveries_due_idx on addon_deliveries (next_attempt_at, id) where state = 'pending'`.execute(db);
  // The console's and GET /api/admin/addons/:id/events' lookup: one integration's latest deliveries.
  await db.schema.createIndex("addon_deliveries_addon_idx").on("addon_deliveries").columns(["addon_id", "id"]).execute();
  await db.schema.createIndex("addon_deliveries_event_idx").on("addon_deliveries").column("event_id").execute();

  // One notification per transaction whatever its row count: Postgres folds identical ones.
  await sql`
    create function vexil_notify_addon_delivery() returns trigger language plpgsql as $$
    begin
      perform pg_notify('vexil_addon_deliveries', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger addon_deliveries_notify after insert on addon_deliveries
            for each row execute function vexil_notify_addon_delivery()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("addon_deliveries").execute();
  await sql`drop function vexil_notify_addon_delivery()`.execute(db);
  await db.schema.dropTable("addons").execute();
}
