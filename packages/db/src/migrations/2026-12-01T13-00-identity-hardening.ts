import { type Kysely, sql } from "kysely";

// A username is one name whatever its case, for local, OIDC and SCIM users alike (e-mails already
// are: users_email_lower_idx). Existing case-duplicates keep the oldest user's name; each later one
// is renamed `<name>-<id>` (the id makes it unique), so the migration never fails on old data and
// those users still sign in by e-mail, or by the new name an Admin tells them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update users set username = users.username || '-' || users.id
      from users oldest
     where lower(oldest.username) = lower(users.username) and oldest.id < users.id`.execute(db);
  await sql`drop index users_username_lower_idx`.execute(db);
  await sql`create unique index users_username_lower_key on users (lower(username))`.execute(db);
  // A session started with the well-known default password may do nothing but change it.
  await sql`alter table sessions add column password_change_required boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions drop column password_change_required`.execute(db);
  await sql`drop index users_username_lower_key`.execute(db);
  await sql`create index users_username_lower_idx on users (lower(username))`.execute(db);
}
