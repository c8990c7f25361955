import { type Kysely, sql } from "kysely";

// SCIM provisioning (docs/scim.md): users and groups an identity provider manages, and the token
// kind it calls with. A provisioned user carries the SCIM id Vexil gave it and the provider's own
// externalId; `active` false is a leaver, whose sessions and tokens end and who cannot sign in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("scim_id", "text", (c) => c.unique())
    .addColumn("scim_external_id", "text")
    .execute();

  // Identity providers look users up by userName, which SCIM compares without regard to case.
  await sql`create index users_username_lower_idx on users (lower(username))`.execute(db);

  // The same trigger, now also announcing a change of `active` or of who manages the user.
  await sql`drop trigger users_auth_change on users`.execute(db);
  await sql`create trigger users_auth_change after update of id, username, email, root_role, password_hash, active, scim_id or delete on users
            for each row execute function vexil_notify_auth_change('user', 'id')`.execute(db);

  await sql`alter table api_tokens drop constraint api_tokens_type_check`.execute(db);
  await sql`alter table api_tokens add constraint api_tokens_type_check check (type in ('admin', 'client', 'frontend', 'personal', 'scim'))`.execute(
    db,
  );

  // Unleash's groups: a name, members, and (for later) project roles given to the group.
  await db.schema
    .createTable("groups")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text")
    .addColumn("scim_id", "text", (c) => c.unique())
    .addColumn("scim_external_id", "text")
    .addColumn("created_by", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("group_users")
    .addColumn("group_id", "integer", (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_by", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("group_users_pkey", ["group_id", "user_id"])
    .execute();
  await sql`create index groups_name_lower_idx on groups (lower(name))`.execute(db);
  // A user's groups (on leaving, on a project role given to a group).
  await db.schema.createIndex("group_users_user_idx").on("group_users").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("group_users").execute();
  await db.schema.dropTable("groups").execute();
  await db.deleteFrom("api_tokens").where("type", "=", "scim").execute();
  await sql`alter table api_tokens drop constraint api_tokens_type_check`.execute(db);
  await sql`alter table api_tokens add constraint api_tokens_type_check check (type in ('admin', 'client', 'frontend', 'personal'))`.execute(
    db,
  );
  await sql`drop trigger users_auth_change on users`.execute(db);
  await sql`create trigger users_auth_change after update of id, username, email, root_role, password_hash or delete on users
            for each row execute function vexil_notify_auth_change('user', 'id')`.execute(db);
  await sql`drop index users_username_lower_idx`.execute(db);
  await db.schema.alterTable("users").dropColumn("scim_external_id").dropColumn("scim_id").dropColumn("active").execute();
}
