import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// What a query's terms matched is kept by each instance under the terms' generation, which every
// write to a name, a description or a tag's value moves by trigger at its commit
// (docs/search.md#one-query). After each kind of write, an instance that kept the terms must
// answer what an instance that never searched answers (a handle of its own, nothing kept).
const testDb = await openTestDb();
const db = testDb.kysely;

const names = async (on: Kysely<Database>, query = "kept-term") =>
  (await searchFeatures(on, featureSearchQuerySchema.parse({ query, sortBy: "name" }))).features.map((f) => f.name);
/** Another instance's view: a handle with nothing kept. */
const fresh = (query?: string) => names(db.withoutPlugins(), query);
const generation = async () =>
  (await sql<{ generation: string }>`select generation from feature_search_terms_generation`.execute(db)).rows[0]?.generation;

/** Searches (keeping the terms), writes, and finds this instance's answer equal to a fresh one's; returns it. */
async function afterWrite(what: string, write: () => Promise<unknown>, query?: string): Promise<string[]> {
  await names(db, query);
  const before = await generation();
  await write();
  assert.is.not(await generation(), before, `${what} moves the generation`);
  const kept = await names(db, query);
  assert.equal(kept, await fresh(query), `after ${what}, the kept terms' answer is a fresh one`);
  return kept;
}

test.before(async () => {
  await sql`insert into projects (id, name) values ('kept', 'kept')`.execute(db);
  await sql`insert into features (name, project_id, description) values
            ('kept-term-a', 'kept', null), ('kept-term-b', 'kept', 'first'), ('other-c', 'kept', 'plain')`.execute(db);
  await sql`insert into tag_types (name) values ('simple') on conflict do nothing`.execute(db);
  await sql`insert into tags (type, value) values ('simple', 'kept-term-tag'), ('simple', 'plain-tag') on conflict do nothing`.execute(db);
});
test.after(() => testDb.close());

test("kept terms are used: a flag added with triggers off is not found until the generation moves", async () => {
  assert.equal(await names(db), ["kept-term-a", "kept-term-b"]);
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`insert into features (name, project_id) values ('kept-term-hidden', 'kept')`.execute(trx);
  });
  // Every answer read again (docs/search.md#one-query): the terms kept still serve.
  await sql`update feature_search_answers_generation set generation = generation + 1`.execute(db);
  assert.equal(await names(db), ["kept-term-a", "kept-term-b"], "kept: the write moved no generation");
  assert.equal(await fresh(), ["kept-term-a", "kept-term-b", "kept-term-hidden"]);
  await sql`update feature_search_terms_generation set generation = generation + 1`.execute(db);
  await sql`update feature_search_answers_generation set generation = generation + 1`.execute(db);
  assert.equal(await names(db), ["kept-term-a", "kept-term-b", "kept-term-hidden"]);
  await sql`delete from features where name = 'kept-term-hidden'`.execute(db);
});

test("a flag made or deleted", async () => {
  assert.equal(
    await afterWrite("a flag made", () => sql`insert into features (name, project_id) values ('kept-term-new', 'kept')`.execute(db)),
    ["kept-term-a", "kept-term-b", "kept-term-new"],
  );
  assert.equal(await afterWrite("a flag deleted", () => sql`delete from features where name = 'kept-term-new'`.execute(db)), [
    "kept-term-a",
    "kept-term-b",
  ]);
});

test("a description that comes to hold the term, or no longer does", async () => {
  assert.equal(
    await afterWrite("a description written", () =>
      sql`update features set description = 'now a kept-term too' where name = 'other-c'`.execute(db),
    ),
    ["kept-term-a", "kept-term-b", "other-c"],
  );
  assert.equal(
    await afterWrite("a description changed", () => sql`update features set description = 'plain' where name = 'other-c'`.execute(db)),
    ["kept-term-a", "kept-term-b"],
  );
});

test("a tag whose value holds the term, added, moved to another flag and removed", async () => {
  const query = "kept-term-tag";
  assert.equal(await names(db, query), []);
  assert.equal(
    await afterWrite(
      "a tag added",
      () => sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('other-c', 'simple', 'kept-term-tag')`.execute(db),
      query,
    ),
    ["other-c"],
  );
  assert.equal(
    await afterWrite(
      "a tag moved",
      () =>
        sql`update feature_tags set feature_name = 'kept-term-a' where feature_name = 'other-c' and tag_value = 'kept-term-tag'`.execute(
          db,
        ),
      query,
    ),
    ["kept-term-a"],
  );
  assert.equal(
    await afterWrite("a tag removed", () => sql`delete from feature_tags where tag_value = 'kept-term-tag'`.execute(db), query),
    [],
  );
});

test("a truncation", async () => {
  const other = await openTestDb();
  try {
    const on = other.kysely;
    await sql`insert into projects (id, name) values ('t', 't')`.execute(on);
    await sql`insert into features (name, project_id) values ('kept-term-t', 't')`.execute(on);
    assert.equal(await names(on), ["kept-term-t"]);
    const before = (await sql<{ generation: string }>`select generation from feature_search_terms_generation`.execute(on)).rows[0]
      ?.generation;
    await sql`truncate features cascade`.execute(on);
    const after = (await sql<{ generation: string }>`select generation from feature_search_terms_generation`.execute(on)).rows[0]
      ?.generation;
    assert.is.not(after, before);
    assert.equal(await names(on), []);
  } finally {
    await other.close();
  }
});

test("writes that change no term's text leave the generation alone", async () => {
  const before = await generation();
  await sql`update features set last_seen_at = now(), stale = true, type = 'experiment' where name = 'kept-term-a'`.execute(db);
  await sql`update features set description = description where name = 'kept-term-b'`.execute(db);
  await sql`insert into feature_environments (feature_name, environment_name, enabled) values ('kept-term-a', 'development', true)`.execute(
    db,
  );
  assert.is(await generation(), before);
});

test("a transaction moves it once, at its commit", async () => {
  const before = BigInt((await generation()) ?? "0");
  await db.transaction().execute(async (trx) => {
    await sql`insert into features (name, project_id) values ('kept-term-one-1', 'kept'), ('kept-term-one-2', 'kept')`.execute(trx);
    await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('kept-term-one-1', 'simple', 'plain-tag')`.execute(trx);
    const inside = (await sql<{ generation: string }>`select generation from feature_search_terms_generation`.execute(trx)).rows[0];
    assert.is(BigInt(inside?.generation ?? "0"), before, "not before its commit");
  });
  assert.is(BigInt((await generation()) ?? "0"), before + 1n, "three rows of two tables in one transaction: moved once");
  assert.is(
    (await sql<{ n: string }>`select count(*)::text as n from feature_search_terms_moves`.execute(db)).rows[0]?.n,
    "0",
    "no queued move is left behind",
  );
  await sql`delete from features where name like 'kept-term-one-%'`.execute(db);
});

// Two transactions at once need two connections: the embedded database has one.
if (testDb.kind === "postgres")
  test("a write does not wait for another one still open", async () => {
    const before = BigInt((await generation()) ?? "0");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted: () => void = () => {};
    const insertedFirst = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const open = db.transaction().execute(async (trx) => {
      await sql`insert into features (name, project_id) values ('kept-term-open-1', 'kept'), ('kept-term-open-2', 'kept')`.execute(trx);
      await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('kept-term-open-1', 'simple', 'plain-tag')`.execute(
        trx,
      );
      inserted();
      await held;
    });
    // Settles `insertedFirst` too if the open transaction fails before its rows are written.
    open.catch(() => inserted());
    await insertedFirst;
    // Were the generation's row locked at the write, this would wait for the open one and time out.
    await db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '5s'`.execute(trx);
      await sql`insert into features (name, project_id) values ('kept-term-other', 'kept')`.execute(trx);
    });
    assert.is(BigInt((await generation()) ?? "0"), before + 1n, "the committed write moved it, the open one not yet");
    assert.equal(await names(db), ["kept-term-a", "kept-term-b", "kept-term-other"]);
    release();
    await open;
    assert.is(BigInt((await generation()) ?? "0"), before + 2n);
    assert.equal(await names(db), ["kept-term-a", "kept-term-b", "kept-term-open-1", "kept-term-open-2", "kept-term-other"]);
    assert.equal(await names(db), await fresh());
  });

test.run();
