import { type Kysely, sql } from "kysely";

// Instances cache who a token or session cookie stands for. Any change that could alter or end
// that answer, made by Vexil or by hand in SQL, tells every instance at commit through NOTIFY.
// The payload names what changed ("token:<id>" or "user:<id>"), never a secret.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function vexil_notify_auth_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('vexil_auth_changes', tg_argv[0] || ':' || (to_jsonb(old) ->> tg_argv[1]));
      return null;
    end
    $$`.execute(db);
  await sql`create trigger api_tokens_auth_change after update or delete on api_tokens
            for each row execute function vexil_notify_auth_change('token', 'id')`.execute(db);
  // last_seen_at is left out: touching a session must not evict it; idleness is checked on look-up.
  await sql`create trigger sessions_auth_change after update of id, user_id, expires_at or delete on sessions
            for each row execute function vexil_notify_auth_change('user', 'user_id')`.execute(db);
  // seen_at and login_attempts change on every login and are not part of a principal.
  await sql`create trigger users_auth_change after update of id, username, email, root_role, password_hash or delete on users
            for each row execute function vexil_notify_auth_change('user', 'id')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_auth_change on users`.execute(db);
  await sql`drop trigger sessions_auth_change on sessions`.execute(db);
  await sql`drop trigger api_tokens_auth_change on api_tokens`.execute(db);
  await sql`drop function vexil_notify_auth_change()`.execute(db);
}
