import { type Kysely, sql } from "kysely";

// Roles per project (docs/project-roles.md): a user or a group is Owner (4), Member (5) or Viewer (6)
// of a project, as Unleash's role_user and group_role tables keep it. A user's project roles are
// part of who a credential stands for, so every change to them, to a group's roles or to a group's
// members announces the users it touches on the auth-change channel, as the users table does.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("role_user")
    .addColumn("project", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role_id", "integer", (c) => c.notNull().check(sql`role_id in (4, 5, 6)`))
    .addColumn("created_by", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("role_user_pkey", ["project", "user_id", "role_id"])
    .execute();
  // A user's roles in every project (the look-up of a principal).
  await db.schema.createIndex("role_user_user_idx").on("role_user").column("user_id").execute();

  await db.schema
    .createTable("group_role")
    .addColumn("project", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("role_id", "integer", (c) => c.notNull().check(sql`role_id in (4, 5, 6)`))
    .addColumn("created_by", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("group_role_pkey", ["project", "group_id", "role_id"])
    .execute();
  // A group's roles in every project (through a user's groups).
  await db.schema.createIndex("group_role_group_idx").on("group_role").column("group_id").execute();

  await sql`
    create function vexil_notify_project_role_change() returns trigger language plpgsql as $$
    declare
      changed record;
    begin
      if tg_op = 'DELETE' then changed := old; else changed := new; end if;
      if tg_table_name = 'group_role' then
        perform pg_notify('vexil_auth_changes', 'user:' || gu.user_id) from group_users gu where gu.group_id = changed.group_id;
      else
        perform pg_notify('vexil_auth_changes', 'user:' || changed.user_id);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger role_user_auth_change after insert or update or delete on role_user
            for each row execute function vexil_notify_project_role_change()`.execute(db);
  await sql`create trigger group_role_auth_change after insert or update or delete on group_role
            for each row execute function vexil_notify_project_role_change()`.execute(db);
  await sql`create trigger group_users_auth_change after insert or update or delete on group_users
            for each row execute function vexil_notify_project_role_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists role_user_auth_change on role_user`.execute(db);
  await sql`drop trigger if exists group_role_auth_change on group_role`.execute(db);
  await sql`drop trigger if exists group_users_auth_change on group_users`.execute(db);
  await sql`drop function vexil_notify_project_role_change()`.execute(db);
  await db.schema.dropTable("group_role").execute();
  await db.schema.dropTable("role_user").execute();
}
