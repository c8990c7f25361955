import { type Kysely, sql } from "kysely";

// A flag's tags as a column of its own row, `features.tag_keys` (`type:value`, sorted), kept by
// trigger from `feature_tags` and indexed by GIN, so that a search filtered by tags reads the flags
// carrying them from that index alone rather than each carrier's row by primary key
// (docs/search.md#tag-keys). Kept by the database, as the search's stamps are, so that no writer
// (a command, an import, a tag type's deletion cascading, a hand in psql) can leave it behind.
// Tag type names need no URL encoding, so hold no `:`: the key names one tag.

const KEYS_OF = sql.raw(
  `coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = f.name), '{}')`,
);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table features add column tag_keys text[] not null default '{}'`.execute(db);
  await sql`update features f set tag_keys = k.keys
            from (select feature_name, array_agg(tag_type || ':' || tag_value order by tag_type, tag_value) as keys
                  from feature_tags group by feature_name) k
            where k.feature_name = f.name`.execute(db);
  // No pending list (docs/search.md#pending-list): every update of a flag's row that is not HOT
  // (a last-seen stamp, a potentially-stale pass) adds its keys again, and a search would read them all.
  await sql`create index features_tag_keys_idx on features using gin (tag_keys) with (fastupdate = off)`.execute(db);
  for (const [event, names] of [
    ["insert", "select feature_name from changed"],
    ["delete", "select feature_name from changed"],
    ["update", "select feature_name from changed union select feature_name from changed_before"],
  ] as const) {
    // The flags of the statement's rows get their keys again, locked in name order as every writer of many flags locks them.
    await sql`
      create function ${sql.raw(`vexil_tag_keys_${event}`)}() returns trigger language plpgsql as $$
      begin
        perform 1 from features where name in (${sql.raw(names)}) order by name for no key update;
        update features f set tag_keys = ${KEYS_OF} where f.name in (${sql.raw(names)});
        return null;
      end
      $$`.execute(db);
    const referencing =
      event === "insert"
        ? "new table as changed"
        : event === "delete"
          ? "old table as changed"
          : "old table as changed_before new table as changed";
    await sql`create trigger ${sql.raw(`feature_tags_tag_keys_${event}`)} after ${sql.raw(event)} on feature_tags
              referencing ${sql.raw(referencing)}
              for each statement execute function ${sql.raw(`vexil_tag_keys_${event}`)}()`.execute(db);
  }
  // Tags are not served to SDKs: a change of the keys alone wakes no read model, as last seen does not.
  await sql`drop trigger features_flag_change_update on features`.execute(db);
  await sql`create trigger features_flag_change_update after update on features
            for each row when ((to_jsonb(old) - 'last_seen_at' - 'tag_keys') is distinct from (to_jsonb(new) - 'last_seen_at' - 'tag_keys'))
            execute function vexil_notify_flag_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger features_flag_change_update on features`.execute(db);
  await sql`create trigger features_flag_change_update after update on features
            for each row when ((to_jsonb(old) - 'last_seen_at') is distinct from (to_jsonb(new) - 'last_seen_at'))
            execute function vexil_notify_flag_change()`.execute(db);
  for (const event of ["insert", "delete", "update"]) {
    await sql`drop trigger ${sql.raw(`feature_tags_tag_keys_${event}`)} on feature_tags`.execute(db);
    await sql`drop function ${sql.raw(`vexil_tag_keys_${event}`)}()`.execute(db);
  }
  await sql`drop index features_tag_keys_idx`.execute(db);
  await sql`alter table features drop column tag_keys`.execute(db);
}
