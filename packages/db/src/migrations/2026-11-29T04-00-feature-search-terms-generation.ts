import { type Kysely, sql } from "kysely";

// Which flags a search's query terms match (their names, descriptions and tag values) is kept by
// each instance under a generation that every write changing those texts moves, by trigger, in its
// own transaction (docs/search.md#one-query). A search reads the generation with its page: the
// same generation proves that no such write committed since the terms were looked up.
//
// The generation is one row, moved at commit, once per transaction: a write's statement queues a
// row of `feature_search_terms_moves` (the first in its transaction, noted in a setting local to
// it), whose deferred trigger moves the generation at commit and deletes the queued row again.
// Taken there, the generation's lock is the last a transaction asks for: two writers queue for it
// only while one of them commits, and never wait on each other for anything else meanwhile.

/** Statements whose rows can change what the terms match, with the rows they wrote (`changed`). */
const STATEMENTS: { table: string; event: "insert" | "delete" }[] = [
  { table: "features", event: "insert" },
  { table: "features", event: "delete" },
  { table: "feature_tags", event: "insert" },
  { table: "feature_tags", event: "delete" },
];

/** Updates of the texts (or of the flag a tag is on), per row where they change: rare writes. */
const UPDATES: { table: string; columns: string }[] = [
  { table: "features", columns: "name, description" },
  { table: "feature_tags", columns: "feature_name, tag_value" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table feature_search_terms_generation (generation bigint not null)`.execute(db);
  await sql`insert into feature_search_terms_generation (generation) values (1)`.execute(db);
  // A transaction's queued move: written and deleted again within the transaction, never seen by another.
  await sql`create table feature_search_terms_moves (queued boolean not null default true)`.execute(db);
  await sql`
    create function vexil_search_terms_queue() returns void language plpgsql as $$
    begin
      if current_setting('vexil.search_terms_queued', true) is distinct from 'yes' then
        insert into feature_search_terms_moves default values;
        perform set_config('vexil.search_terms_queued', 'yes', true);
      end if;
    end
    $$`.execute(db);
  await sql`
    create function vexil_search_terms_move() returns trigger language plpgsql as $$
    begin
      update feature_search_terms_generation set generation = generation + 1;
      delete from feature_search_terms_moves;
      -- Moved: a write after this (were the trigger fired before the commit) queues a move again.
      perform set_config('vexil.search_terms_queued', '', true);
      return null;
    end
    $$`.execute(db);
  await sql`create constraint trigger feature_search_terms_moves_at_commit after insert on feature_search_terms_moves
            deferrable initially deferred for each row execute function vexil_search_terms_move()`.execute(db);

  // Per statement, where it wrote a row: a statement that deletes nothing (housekeeping's) moves nothing.
  await sql`
    create function vexil_search_terms_written() returns trigger language plpgsql as $$
    begin
      if exists (select from changed) then
        perform vexil_search_terms_queue();
      end if;
      return null;
    end
    $$`.execute(db);
  for (const { table, event } of STATEMENTS) {
    await sql`create trigger ${sql.raw(`${table}_search_terms_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
              referencing ${sql.raw(event === "delete" ? "old" : "new")} table as changed
              for each statement execute function vexil_search_terms_written()`.execute(db);
  }
  await sql`
    create function vexil_search_terms_updated() returns trigger language plpgsql as $$
    begin
      perform vexil_search_terms_queue();
      return null;
    end
    $$`.execute(db);
  for (const { table, columns } of UPDATES) {
    const changed = sql.raw(`(old.${columns.replaceAll(", ", ", old.")}) is distinct from (new.${columns.replaceAll(", ", ", new.")})`);
    await sql`create trigger ${sql.raw(`${table}_search_terms_update`)} after update of ${sql.raw(columns)} on ${sql.table(table)}
              for each row when (${changed}) execute function vexil_search_terms_updated()`.execute(db);
  }
  // A truncation fires no row trigger; it locks the table whole anyway.
  for (const table of ["features", "feature_tags"]) {
    await sql`create trigger ${sql.raw(`${table}_search_terms_truncate`)} after truncate on ${sql.table(table)}
              for each statement execute function vexil_search_terms_updated()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["features", "feature_tags"]) {
    await sql`drop trigger ${sql.raw(`${table}_search_terms_truncate`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.raw(`${table}_search_terms_update`)} on ${sql.table(table)}`.execute(db);
  }
  for (const { table, event } of STATEMENTS)
    await sql`drop trigger ${sql.raw(`${table}_search_terms_${event}`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function vexil_search_terms_updated()`.execute(db);
  await sql`drop function vexil_search_terms_written()`.execute(db);
  await sql`drop trigger feature_search_terms_moves_at_commit on feature_search_terms_moves`.execute(db);
  await sql`drop function vexil_search_terms_move()`.execute(db);
  await sql`drop function vexil_search_terms_queue()`.execute(db);
  await sql`drop table feature_search_terms_moves`.execute(db);
  await sql`drop table feature_search_terms_generation`.execute(db);
}
