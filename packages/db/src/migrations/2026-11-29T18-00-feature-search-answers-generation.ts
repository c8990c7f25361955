import { type Kysely, sql } from "kysely";

// A search's whole answer is kept by each instance under the answers' generation, which every write
// to what any search reads or shows moves, by trigger, at its commit (docs/search.md#one-query).
// A search made again reads the generation alone: the same generation proves that no such write
// committed since its answer was read, on any instance.
//
// What a search shows of a flag beyond its own columns already stamps the flag, or moves the epoch,
// by trigger (2026-11-28T12-00-feature-search-stamps): a stamp or an epoch written queues a move. A
// flag's own columns are written by updates of `features`, which stamp nothing: any of them queues
// one too. Writes those triggers did not see now stamp their flags (`feature-created` events, the
// last hours' SDK counts deleted) or move the epoch (updates of two link tables, a truncation of any
// table a search reads), and so queue a move as well as dropping the flags' kept parts.
//
// Moved at commit, once per transaction, as the terms' generation is (2026-11-29T04-00-feature-
// search-terms-generation). Both rows are locked at commit: every transaction locks the answers'
// row before the terms' (the terms' move locks it first), so that two transactions committing at
// once cannot each hold one and wait for the other.

/** Tables a search reads, whose truncation fires no trigger that stamps a flag or queues a move. */
const READ_TABLES = [
  "features",
  "feature_environments",
  "feature_strategies",
  "feature_strategy_segments",
  "feature_tags",
  "feature_dependencies",
  "feature_lifecycles",
  "change_request_changes",
  "change_requests",
  "client_metrics",
  "environments",
  "project_environments",
  "tag_types",
  "segments",
  "users",
  "events",
];

/** Statements that queue a move where they wrote a row (`changed`). */
const STATEMENTS: { table: string; event: "insert" | "update" }[] = [
  { table: "feature_search_stamps", event: "insert" },
  { table: "feature_search_stamps", event: "update" },
  { table: "feature_search_epoch", event: "update" },
  { table: "features", event: "update" },
];

/**
 * Writes the stamps' triggers (2026-11-28T12-00-feature-search-stamps) did not see, with the flags
 * each touched: a `feature-created` event written, changed or deleted (its author is the flag's
 * creator, which a search shows and filters by), and SDK counts of the last two hours deleted (a
 * kept result shows the hour buckets begun within the hour before it was read, in the hour it
 * serves; housekeeping deletes only days-old hours, which stamp nothing).
 */
const STAMPED: { table: string; event: "insert" | "update" | "delete"; transition: string; names: string }[] = [
  {
    table: "events",
    event: "insert",
    transition: "new table as changed",
    names: "select feature_name from changed where type = 'feature-created'",
  },
  {
    table: "events",
    event: "update",
    transition: "old table as gone new table as changed",
    names:
      "select feature_name from changed where type = 'feature-created' union all select feature_name from gone where type = 'feature-created'",
  },
  {
    table: "events",
    event: "delete",
    transition: "old table as changed",
    names: "select feature_name from changed where type = 'feature-created'",
  },
  {
    table: "client_metrics",
    event: "delete",
    transition: "old table as changed",
    names: "select feature_name from changed where hour >= now() - interval '2 hours'",
  },
];

/** Tables whose rows' updates the stamps' triggers did not see, written by hand at most: any change moves the epoch. */
const EPOCH_UPDATES = ["feature_strategy_segments", "project_environments"];

/**
 * The function a generation's queued move runs at commit: it moves the generation and deletes the
 * queued row. The terms' move, here, first locks the answers' row (`answersFirst`); without it, as
 * 2026-11-29T04-00-feature-search-terms-generation wrote it.
 */
const moveFunction = (kind: "answers" | "terms", { answersFirst = false } = {}) => sql`
  create or replace function ${sql.raw(`vexil_search_${kind}_move`)}() returns trigger language plpgsql as $$
  begin
    ${sql.raw(answersFirst ? "perform from feature_search_answers_generation for update;" : "")}
    update ${sql.raw(`feature_search_${kind}_generation`)} set generation = generation + 1;
    delete from ${sql.raw(`feature_search_${kind}_moves`)};
    -- Moved: a write after this (were the trigger fired before the commit) queues a move again.
    perform set_config('${sql.raw(`vexil.search_${kind}_queued`)}', '', true);
    return null;
  end
  $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table feature_search_answers_generation (generation bigint not null)`.execute(db);
  await sql`insert into feature_search_answers_generation (generation) values (1)`.execute(db);
  // A transaction's queued move: written and deleted again within the transaction, never seen by another.
  await sql`create table feature_search_answers_moves (queued boolean not null default true)`.execute(db);
  await sql`
    create function vexil_search_answers_queue() returns void language plpgsql as $$
    begin
      if current_setting('vexil.search_answers_queued', true) is distinct from 'yes' then
        insert into feature_search_answers_moves default values;
        perform set_config('vexil.search_answers_queued', 'yes', true);
      end if;
    end
    $$`.execute(db);
  await moveFunction("answers").execute(db);
  await sql`create constraint trigger feature_search_answers_moves_at_commit after insert on feature_search_answers_moves
            deferrable initially deferred for each row execute function vexil_search_answers_move()`.execute(db);
  // The terms' move locks the answers' row first: whichever of the two fires first, a transaction
  // locks them in the same order. Every write that moves the terms moves the answers too.
  await moveFunction("terms", { answersFirst: true }).execute(db);

  // Per statement, where it wrote a row: a statement that writes nothing (housekeeping's) moves nothing.
  await sql`
    create function vexil_search_answers_written() returns trigger language plpgsql as $$
    begin
      if exists (select from changed) then
        perform vexil_search_answers_queue();
      end if;
      return null;
    end
    $$`.execute(db);
  for (const { table, event } of STATEMENTS) {
    await sql`create trigger ${sql.raw(`${table}_search_answers_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
              referencing new table as changed
              for each statement execute function vexil_search_answers_written()`.execute(db);
  }
  // Writes the stamps' triggers did not see: each stamps the flags it touched, in name order as
  // theirs do, or moves the epoch.
  for (const { table, event, transition, names } of STAMPED) {
    const fn = sql.raw(`vexil_search_stamp_${table}_${event}`);
    await sql`
      create function ${fn}() returns trigger language plpgsql as $$
      begin
        insert into feature_search_stamps (feature_name, stamp)
        select name, nextval('feature_search_stamp_seq') from (select distinct name from (${sql.raw(names)}) n(name) where name is not null order by name) named
        on conflict (feature_name) do update set stamp = excluded.stamp;
        return null;
      end
      $$`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_search_stamp_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
              referencing ${sql.raw(transition)} for each statement execute function ${fn}()`.execute(db);
  }
  for (const table of EPOCH_UPDATES)
    await sql`create trigger ${sql.raw(`${table}_search_epoch_update`)} after update on ${sql.table(table)}
              for each row when (old.* is distinct from new.*) execute function vexil_search_epoch()`.execute(db);
  for (const table of READ_TABLES) {
    await sql`create trigger ${sql.raw(`${table}_search_answers_truncate`)} after truncate on ${sql.table(table)}
              for each statement execute function vexil_search_epoch()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of EPOCH_UPDATES) await sql`drop trigger ${sql.raw(`${table}_search_epoch_update`)} on ${sql.table(table)}`.execute(db);
  for (const { table, event } of STAMPED) {
    await sql`drop trigger ${sql.raw(`${table}_search_stamp_${event}`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`vexil_search_stamp_${table}_${event}`)}()`.execute(db);
  }
  for (const table of READ_TABLES)
    await sql`drop trigger ${sql.raw(`${table}_search_answers_truncate`)} on ${sql.table(table)}`.execute(db);
  for (const { table, event } of STATEMENTS)
    await sql`drop trigger ${sql.raw(`${table}_search_answers_${event}`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function vexil_search_answers_written()`.execute(db);
  await moveFunction("terms").execute(db);
  await sql`drop trigger feature_search_answers_moves_at_commit on feature_search_answers_moves`.execute(db);
  await sql`drop function vexil_search_answers_move()`.execute(db);
  await sql`drop function vexil_search_answers_queue()`.execute(db);
  await sql`drop table feature_search_answers_moves`.execute(db);
  await sql`drop table feature_search_answers_generation`.execute(db);
}
