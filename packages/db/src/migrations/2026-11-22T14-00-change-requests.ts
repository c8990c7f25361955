import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("change_request_settings")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("environment_name", "text", (c) => c.notNull().references("environments.name").onDelete("cascade"))
    .addColumn("enabled", "boolean", (c) => c.notNull())
    .addColumn("required_approvals", "integer", (c) => c.notNull().check(sql`required_approvals between 1 and 10`))
    .addPrimaryKeyConstraint("change_request_settings_pk", ["project_id", "environment_name"])
    .execute();

  await db.schema
    .createTable("change_requests")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("environment_name", "text", (c) => c.notNull().references("environments.name").onDelete("cascade"))
    .addColumn("title", "text")
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled')`),
    )
    .addColumn("created_by_user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("min_approvals", "integer", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("scheduled_at", "timestamptz")
    .addColumn("schedule_status", "text", (c) => c.check(sql`schedule_status in ('pending', 'failed', 'suspended')`))
    .addColumn("schedule_reason", "text")
    .execute();
  // One open request per user, project and environment (Unleash); also races cannot make two.
  await sql`create unique index change_requests_one_open_idx on change_requests (project_id, environment_name, created_by_user_id)
            where state in ('Draft', 'In review', 'Approved')`.execute(db);
  // The pending list: one user's requests in one project, by id.
  await db.schema
    .createIndex("change_requests_author_idx")
    .on("change_requests")
    .columns(["project_id", "created_by_user_id", "id"])
    .execute();
  // The scheduler looks only at due Scheduled requests.
  await sql`create index change_requests_due_idx on change_requests (scheduled_at) where state = 'Scheduled' and schedule_status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable("change_request_changes")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("change_request_id", "integer", (c) => c.notNull().references("change_requests.id").onDelete("cascade"))
    .addColumn("feature_name", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("created_by_user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("change_request_changes_cr_idx").on("change_request_changes").columns(["change_request_id", "id"]).execute();

  await db.schema
    .createTable("change_request_reviews")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("change_request_id", "integer", (c) => c.notNull().references("change_requests.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('approval', 'rejection', 'comment')`))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("text", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("change_request_reviews_cr_idx").on("change_request_reviews").columns(["change_request_id", "id"]).execute();
  // An approval counts once per user.
  await sql`create unique index change_request_reviews_one_approval_idx on change_request_reviews (change_request_id, user_id)
            where kind = 'approval'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["change_request_reviews", "change_request_changes", "change_requests", "change_request_settings"]) {
    await db.schema.dropTable(table).execute();
  }
}
