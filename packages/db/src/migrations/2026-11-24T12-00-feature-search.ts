import { type Kysely, type SqlBool, sql } from "kysely";

// Indexes that answer GET /api/admin/search/features from indexes at 100,000 flags (docs/search.md#indexes):
// every page is read in its sort order from a btree (live flags, or archived ones), each common
// filter has a btree that leads with it, and substring search uses pg_trgm's GIN indexes.
export async function up(db: Kysely<any>): Promise<void> {
  const liveIndex = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on("features").columns(columns).where(sql.ref("archived_at"), "is", null).execute();

  // The default sort (createdAt, then name) and the total of live flags; the archived view's likewise.
  await liveIndex("features_live_created_idx", ["created_at", "name"]);
  await db.schema
    .createIndex("features_archived_created_idx")
    .on("features")
    .columns(["created_at", "name"])
    .where(sql.ref("archived_at"), "is not", null)
    .execute();
  // A filter by project or type, in the default sort.
  await liveIndex("features_live_project_created_idx", ["project_id", "created_at", "name"]);
  await liveIndex("features_live_type_created_idx", ["type", "created_at", "name"]);
  // lastSeenAt as a filter and as a sort.
  await liveIndex("features_live_last_seen_idx", ["last_seen_at"]);
  // The state filter: each state's live flags in the default sort, so that a page and its total
  // read only them (active: not stale; potentially stale: not stale, past the type's lifetime).
  for (const [name, state] of [
    ["features_live_stale_idx", sql<SqlBool>`archived_at is null and stale`],
    ["features_live_active_idx", sql<SqlBool>`archived_at is null and not stale`],
    ["features_live_potentially_stale_idx", sql<SqlBool>`archived_at is null and not stale and potentially_stale`],
  ] as const) {
    await db.schema.createIndex(name).on("features").columns(["created_at", "name"]).where(state).execute();
  }
  // Who created a flag is the author of its feature-created event (the features table does not keep it).
  await db.schema
    .createIndex("events_feature_created_idx")
    .on("events")
    .columns(["feature_name", "created_by_user_id"])
    .where(sql.ref("type"), "=", "feature-created")
    .execute();
  // Each result shows the open change requests that touch the flag; archiving looks them up too (docs/flag-lifecycle.md#archive-revive-delete).
  await db.schema
    .createIndex("change_request_changes_feature_idx")
    .on("change_request_changes")
    .columns(["feature_name", "change_request_id"])
    .execute();

  // Substring search: pg_trgm's GIN indexes, when the server may create the extension (it ships with
  // Postgres' contrib and is trusted, so a database owner may; the embedded database loads it).
  // Without it search still answers, by reading the table.
  await sql`savepoint vexil_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint vexil_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint vexil_trgm`.execute(db);
    return;
  }
  // The operator class by its extension's schema: a migration may run with another search_path (an import's scratch schema).
  const { schema } = await sql<{
    schema: string;
  }>`select quote_ident(n.nspname) as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`
    .execute(db)
    .then((r) => r.rows[0] as { schema: string });
  const ops = sql.raw(`${schema}.gin_trgm_ops`);
  await sql`create index features_name_trgm_idx on features using gin (name ${ops})`.execute(db);
  await sql`create index features_description_trgm_idx on features using gin (description ${ops})`.execute(db);
  await sql`create index feature_tags_value_trgm_idx on feature_tags using gin (tag_value ${ops})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    "feature_tags_value_trgm_idx",
    "features_description_trgm_idx",
    "features_name_trgm_idx",
    "change_request_changes_feature_idx",
    "events_feature_created_idx",
    "features_live_potentially_stale_idx",
    "features_live_active_idx",
    "features_live_stale_idx",
    "features_live_last_seen_idx",
    "features_live_type_created_idx",
    "features_live_project_created_idx",
    "features_archived_created_idx",
    "features_live_created_idx",
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
}
