import { type Kysely, sql } from "kysely";

// SDK metrics stamp `last_seen_at` on features and feature_environments at every flush. That is
// not something SDKs are served, so it must not wake every instance's read model: updates that
// change only `last_seen_at` no longer notify `vexil_flag_changes`, and an upsert whose rows all
// existed no longer notifies as an insert (docs/flag-lifecycle.md#lifecycle-and-last-seen).
// Flags created before lifecycle stages were kept start in `initial`, as of their creation.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger features_flag_change on features`.execute(db);
  await sql`create trigger features_flag_change after insert or delete or truncate on features
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger features_flag_change_update after update on features
            for each row when ((to_jsonb(old) - 'last_seen_at') is distinct from (to_jsonb(new) - 'last_seen_at')) execute function vexil_notify_flag_change()`.execute(
    db,
  );

  await sql`drop trigger feature_environments_flag_change on feature_environments`.execute(db);
  await sql`create trigger feature_environments_flag_change after delete or truncate on feature_environments
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  // Per row: a statement-level insert trigger fires for an INSERT ... ON CONFLICT even when every row conflicted.
  await sql`create trigger feature_environments_flag_change_insert after insert on feature_environments
            for each row execute function vexil_notify_flag_change()`.execute(db);
  await sql`create trigger feature_environments_flag_change_update after update on feature_environments
            for each row when ((to_jsonb(old) - 'last_seen_at') is distinct from (to_jsonb(new) - 'last_seen_at')) execute function vexil_notify_flag_change()`.execute(
    db,
  );

  await sql`insert into feature_lifecycles (feature_name, stage, entered_at)
            select name, 'initial', created_at from features
            on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists features_flag_change on features`.execute(db);
  await sql`drop trigger if exists features_flag_change_insert on features`.execute(db);
  await sql`drop trigger if exists features_flag_change_update on features`.execute(db);
  await sql`create trigger features_flag_change after insert or update or delete or truncate on features
            for each statement execute function vexil_notify_flag_change()`.execute(db);
  await sql`drop trigger if exists feature_environments_flag_change on feature_environments`.execute(db);
  await sql`drop trigger if exists feature_environments_flag_change_insert on feature_environments`.execute(db);
  await sql`drop trigger if exists feature_environments_flag_change_update on feature_environments`.execute(db);
  await sql`create trigger feature_environments_flag_change after insert or update or delete or truncate on feature_environments
            for each statement execute function vexil_notify_flag_change()`.execute(db);
}
