import { type Kysely, sql } from "kysely";

// What a search result shows of a flag besides its own columns (environments, strategies, segments,
// tags, dependencies, lifecycle, open change requests, the last hour's SDK counts) is kept by each
// instance and read again only when the flag's stamp moved (docs/search.md#one-query). Every
// write to a table a result reads gives the flags it touches a new stamp, by trigger, so that no
// writer (a command, an import, housekeeping, a hand in psql) can be missed. What many flags show
// at once (an environment's type and order, a project's environments, a tag type's colour, a
// segment's or a creator's name) moves one epoch instead. The stamps are a table of their own, not
// a column of features: stamping does not rewrite the flags' rows, which every search reads.

/** Flags whose result a statement changed, from its transition table `changed`, per table and event. */
const FLAGS_OF: Record<string, { events: ("insert" | "update" | "delete")[]; names: string }> = {
  // A flag made, or deleted for good: a name used again never meets the results of the flag before.
  features: { events: ["insert", "delete"], names: "select name from changed" },
  feature_environments: { events: ["insert", "update", "delete"], names: "select feature_name from changed" },
  feature_strategies: { events: ["insert", "update", "delete"], names: "select feature_name from changed" },
  feature_strategy_segments: {
    events: ["insert", "delete"],
    names: "select s.feature_name from changed r join feature_strategies s on s.id = r.strategy_id",
  },
  feature_tags: { events: ["insert", "update", "delete"], names: "select feature_name from changed" },
  feature_dependencies: { events: ["insert", "update", "delete"], names: "select parent from changed union select child from changed" },
  feature_lifecycles: { events: ["insert", "update", "delete"], names: "select feature_name from changed" },
  change_request_changes: { events: ["insert", "update", "delete"], names: "select feature_name from changed" },
  // A request's state decides whether it is open.
  change_requests: {
    events: ["update", "delete"],
    names: "select c.feature_name from changed r join change_request_changes c on c.change_request_id = r.id",
  },
  // The last hour's counts; the hours housekeeping rolls up are days old, so deletes change no result.
  client_metrics: { events: ["insert", "update"], names: "select feature_name from changed" },
};

/** Rows of these tables that many flags' results show: a change moves the epoch. */
const EPOCH_OF: Record<string, string> = {
  environments: "old.name, old.type, old.sort_order",
  tag_types: "old.name, old.color",
  segments: "old.name",
  users: "old.name, old.username, old.email",
};

const functionName = (table: string, event: string) => `vexil_search_stamp_${table}_${event}`;

export async function up(db: Kysely<any>): Promise<void> {
  // Not owned by a column: `truncate ... restart identity` must not hand out stamps again.
  await sql`create sequence feature_search_stamp_seq`.execute(db);
  // No foreign key: a deleted flag's stamp stays, so that its name used again starts past it.
  await sql`create table feature_search_stamps (feature_name text primary key, stamp bigint not null)`.execute(db);
  await sql`insert into feature_search_stamps (feature_name, stamp) select name, nextval('feature_search_stamp_seq') from features`.execute(
    db,
  );
  await sql`create table feature_search_epoch (epoch bigint not null)`.execute(db);
  await sql`insert into feature_search_epoch (epoch) values (nextval('feature_search_stamp_seq'))`.execute(db);

  // Rows are written in name order, as every writer of many flags locks them, so that two
  // statements stamping the same flags queue instead of deadlocking.
  const stamp = (names: string) => `
    insert into feature_search_stamps (feature_name, stamp)
    select name, nextval('feature_search_stamp_seq') from (select distinct name from (${names}) n(name) where name is not null order by name) named
    on conflict (feature_name) do update set stamp = excluded.stamp;`;
  for (const [table, { events, names }] of Object.entries(FLAGS_OF)) {
    for (const event of events) {
      await sql`
        create function ${sql.raw(functionName(table, event))}() returns trigger language plpgsql as $$
        begin
          ${sql.raw(stamp(names))}
          return null;
        end
        $$`.execute(db);
      await sql`create trigger ${sql.raw(`${table}_search_stamp_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
                referencing ${sql.raw(event === "delete" ? "old" : "new")} table as changed
                for each statement execute function ${sql.raw(functionName(table, event))}()`.execute(db);
    }
  }
  // A flag moved to another project shows that project's environments and change requests.
  await sql`
    create function vexil_search_stamp_features_project() returns trigger language plpgsql as $$
    begin
      ${sql.raw(stamp("select new.name"))}
      return null;
    end
    $$`.execute(db);
  await sql`create trigger features_search_stamp_project after update of project_id on features
            for each row when (old.project_id is distinct from new.project_id) execute function vexil_search_stamp_features_project()`.execute(
    db,
  );

  await sql`
    create function vexil_search_epoch() returns trigger language plpgsql as $$
    begin
      update feature_search_epoch set epoch = nextval('feature_search_stamp_seq');
      return null;
    end
    $$`.execute(db);
  for (const [table, columns] of Object.entries(EPOCH_OF)) {
    const changed = sql.raw(`(${columns}) is distinct from (${columns.replaceAll("old.", "new.")})`);
    await sql`create trigger ${sql.raw(`${table}_search_epoch_update`)} after update on ${sql.table(table)}
              for each row when (${changed}) execute function vexil_search_epoch()`.execute(db);
    // Per row: a statement that deletes nothing (housekeeping's) must not move the epoch.
    await sql`create trigger ${sql.raw(`${table}_search_epoch_delete`)} after delete on ${sql.table(table)}
              for each row execute function vexil_search_epoch()`.execute(db);
  }
  // Which environments a project's flags show.
  await sql`create trigger project_environments_search_epoch after insert or delete on project_environments
            for each row execute function vexil_search_epoch()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger project_environments_search_epoch on project_environments`.execute(db);
  for (const table of Object.keys(EPOCH_OF)) {
    await sql`drop trigger ${sql.raw(`${table}_search_epoch_update`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.raw(`${table}_search_epoch_delete`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function vexil_search_epoch()`.execute(db);
  await sql`drop trigger features_search_stamp_project on features`.execute(db);
  await sql`drop function vexil_search_stamp_features_project()`.execute(db);
  for (const [table, { events }] of Object.entries(FLAGS_OF)) {
    for (const event of events) {
      await sql`drop trigger ${sql.raw(`${table}_search_stamp_${event}`)} on ${sql.table(table)}`.execute(db);
      await sql`drop function ${sql.raw(functionName(table, event))}()`.execute(db);
    }
  }
  await sql`drop table feature_search_epoch`.execute(db);
  await sql`drop table feature_search_stamps`.execute(db);
  await sql`drop sequence feature_search_stamp_seq`.execute(db);
}
