import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("username", "text", (c) => c.unique())
    .addColumn("email", "text")
    .addColumn("name", "text")
    .addColumn("password_hash", "text")
    .addColumn("root_role", "integer", (c) => c.notNull().check(sql`root_role in (1, 2, 3)`))
    .addColumn("login_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("seen_at", "timestamptz")
    .addColumn("email_sent", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("users_username_or_email", sql`username is not null or email is not null`)
    .execute();
  // E-mail is unique regardless of case, and login looks it up the same way.
  await sql`create unique index users_email_lower_idx on users (lower(email))`.execute(db);

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.notNull().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").columns(["user_id", "seq"]).execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('admin', 'client', 'frontend', 'personal')`))
    .addColumn("token_name", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("projects", "jsonb", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("api_tokens_user_idx").on("api_tokens").column("user_id").execute();

  await db.schema
    .createTable("login_failures")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("account", "text", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("failed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("login_failures_ip_idx").on("login_failures").columns(["ip", "failed_at"]).execute();
  await db.schema.createIndex("login_failures_account_idx").on("login_failures").columns(["account", "failed_at"]).execute();

  await db.schema
    .createTable("login_streaks")
    .addColumn("account", "text", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("last_failed_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("login_streaks_pk", ["account", "ip"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["login_streaks", "login_failures", "api_tokens", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
