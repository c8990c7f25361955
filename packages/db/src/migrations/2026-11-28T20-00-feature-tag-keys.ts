import { type Kysely, sql } from "kysely";

// A flag's tags as a column of its own row, `features.tag_keys` (`type:value`, sorted), kept by
// trigger from `feature_tags` and indexed by GIN, so that a search filtered by tags reads the flags
// carrying them from that index alone rather than each carrier's row by primary key
// (docs/search.md#tag-keys). Kept by the database, as the search's stamps are, so that no writer
// (a command, an import, a tag type's deletion cascading, a hand in psql) can leave it behind.
// Tag type names need no URL encoding, so hold no `:` (a constraint says so too): a key names one tag.

export async function up(db: Kysely<any>): Promise<void> {
  // Tags are not served to SDKs: a change of the keys alone wakes no read model, as last seen does not.
  await sql`drop trigger features_flag_change_update on features`.execute(db);
  await sql`create trigger features_flag_change_update after update on features
            for each row when ((to_jsonb(old) - 'last_seen_at' - 'tag_keys') is distinct from (to_jsonb(new) - 'last_seen_at' - 'tag_keys'))
            execute function vexil_notify_flag_change()`.execute(db);
  await sql`alter table features add column tag_keys text[] not null default '{}'`.execute(db);
  // New names only: a name stored by hand before stays, and is no key of another tag by chance alone.
  await sql`alter table tag_types add constraint tag_types_name_no_colon check (strpos(name, ':') = 0) not valid`.execute(db);

  // Per event, the flags of the statement's rows (from its transition tables) get their keys again
  // (those whose keys changed), locked in name order as every writer of many flags locks them. Named
  // to fire before the search's stamps (triggers fire in name order), so that a cascade locks the
  // flag before the stamp's row.
  await sql`
      create function vexil_tag_keys_insert() returns trigger language plpgsql as $$
      begin
        perform 1 from features where name in (select feature_name from changed) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$`.execute(db);
  await sql`create trigger feature_tags_keys_insert after insert on feature_tags
            referencing new table as changed
            for each statement execute function vexil_tag_keys_insert()`.execute(db);
  await sql`
      create function vexil_tag_keys_delete() returns trigger language plpgsql as $$
      begin
        perform 1 from features where name in (select feature_name from changed) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$`.execute(db);
  await sql`create trigger feature_tags_keys_delete after delete on feature_tags
            referencing old table as changed
            for each statement execute function vexil_tag_keys_delete()`.execute(db);
  await sql`
      create function vexil_tag_keys_update() returns trigger language plpgsql as $$
      begin
        perform 1 from features where name in (select feature_name from changed union select feature_name from changed_before) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed union select feature_name from changed_before) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$`.execute(db);
  await sql`create trigger feature_tags_keys_update after update on feature_tags
            referencing old table as changed_before new table as changed
            for each statement execute function vexil_tag_keys_update()`.execute(db);
  // After the triggers, which hold feature_tags against writers until the migration commits: no
  // tag written meanwhile is missed.
  await sql`update features f set tag_keys = k.keys
            from (select feature_name, array_agg(tag_type || ':' || tag_value order by tag_type, tag_value) as keys
                  from feature_tags group by feature_name) k
            where k.feature_name = f.name`.execute(db);
  // No pending list, which every search would read whole: every update of a flag's row that is not HOT
  // (a last-seen stamp, a potentially-stale pass) adds its keys again, and a search would read them all.
  await sql`create index features_tag_keys_idx on features using gin (tag_keys) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger feature_tags_keys_insert on feature_tags`.execute(db);
  await sql`drop function vexil_tag_keys_insert()`.execute(db);
  await sql`drop trigger feature_tags_keys_delete on feature_tags`.execute(db);
  await sql`drop function vexil_tag_keys_delete()`.execute(db);
  await sql`drop trigger feature_tags_keys_update on feature_tags`.execute(db);
  await sql`drop function vexil_tag_keys_update()`.execute(db);
  await sql`drop index features_tag_keys_idx`.execute(db);
  await sql`alter table tag_types drop constraint tag_types_name_no_colon`.execute(db);
  await sql`alter table features drop column tag_keys`.execute(db);
  await sql`drop trigger features_flag_change_update on features`.execute(db);
  await sql`create trigger features_flag_change_update after update on features
            for each row when ((to_jsonb(old) - 'last_seen_at') is distinct from (to_jsonb(new) - 'last_seen_at'))
            execute function vexil_notify_flag_change()`.execute(db);
}
