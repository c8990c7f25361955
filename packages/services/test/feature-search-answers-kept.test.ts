import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// A search's whole answer is kept by each instance under the answers' generation, which every write
// to what a search reads or shows moves by trigger at its commit (docs/search.md#answers-kept).
// After each kind of write, an instance that kept the answer must answer what an instance that
// never searched answers (a handle of its own, nothing kept); writes to nothing a search reads leave
// the kept answer in use.
const testDb = await openTestDb();
const db = testDb.kysely;

/** Each search here, as the console makes them: by terms, by a project's filters, by status. */
const QUERIES = [
  { query: "kept-answer", sortBy: "name" },
  { project: "IS:answers", state: "IS:active", sortBy: "name" },
  { status: ["production:enabled"], project: "IS:answers" },
  { tag: "INCLUDE_ANY_OF:simple:answer-tag", sortBy: "name" },
].map((q) => featureSearchQuerySchema.parse(q));

const searchAll = (on: Kysely<Database>) => Promise.all(QUERIES.map((q) => searchFeatures(on, q)));
/** Another instance's view: a handle with nothing kept. */
const fresh = () => searchAll(db.withoutPlugins());
const generation = async () =>
  BigInt(
    (await sql<{ generation: string }>`select generation from feature_search_answers_generation`.execute(db)).rows[0]?.generation ?? -1,
  );

/** Searches (keeping the answers), writes, and finds them moved and equal to a fresh instance's. */
async function afterWrite(what: string, write: () => Promise<unknown>): Promise<void> {
  const kept = await searchAll(db);
  assert.equal(await searchAll(db), kept, `before ${what}`);
  const before = await generation();
  await write();
  assert.is(await generation(), before + 1n, `${what} moves the generation once`);
  const answers = await searchAll(db);
  assert.equal(answers, await fresh(), `after ${what}, the kept answers are a fresh instance's`);
}

test.before(async () => {
  await sql`insert into projects (id, name) values ('answers', 'answers')`.execute(db);
  await sql`insert into project_environments (project_id, environment_name) values ('answers', 'development'), ('answers', 'production')`.execute(
    db,
  );
  await sql`insert into features (name, project_id, description) values
            ('kept-answer-a', 'answers', null), ('kept-answer-b', 'answers', 'first'), ('other-c', 'answers', 'plain')`.execute(db);
  await sql`insert into tag_types (name) values ('simple') on conflict do nothing`.execute(db);
  await sql`insert into tags (type, value) values ('simple', 'answer-tag') on conflict do nothing`.execute(db);
  await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('other-c', 'simple', 'answer-tag')`.execute(db);
});
test.after(() => testDb.close());

test("a search made again is answered as it was: a write that moves nothing (triggers off) is not seen until the generation moves", async () => {
  const first = await searchAll(db);
  const again = await searchAll(db);
  for (const [i, answer] of again.entries()) assert.ok(answer === first[i], `search ${i} answered with the answer kept`);
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`update features set stale = true where name = 'kept-answer-a'`.execute(trx);
  });
  assert.equal(await searchAll(db), first, "kept: the write moved no generation");
  assert.is.not((await fresh())[0]?.features[0]?.stale, first[0]?.features[0]?.stale);
  await sql`update feature_search_answers_generation set generation = generation + 1`.execute(db);
  assert.equal(await searchAll(db), await fresh());
  assert.is((await searchAll(db))[0]?.features[0]?.stale, true);
  await sql`update features set stale = false where name = 'kept-answer-a'`.execute(db);
});

test("a flag's own columns: stale, type, impression data, last seen, archived, potentially stale, description", async () => {
  await afterWrite("stale", () => sql`update features set stale = true where name = 'kept-answer-b'`.execute(db));
  await afterWrite("a type", () => sql`update features set type = 'experiment' where name = 'kept-answer-a'`.execute(db));
  await afterWrite("impression data", () => sql`update features set impression_data = true where name = 'kept-answer-a'`.execute(db));
  await afterWrite("last seen", () => sql`update features set last_seen_at = now() where name = 'kept-answer-a'`.execute(db));
  await afterWrite("potentially stale", () => sql`update features set potentially_stale = true where name = 'kept-answer-a'`.execute(db));
  await afterWrite("a description", () => sql`update features set description = 'a kept-answer now' where name = 'other-c'`.execute(db));
  await afterWrite("archived", () => sql`update features set archived_at = now() where name = 'kept-answer-b'`.execute(db));
  await afterWrite("revived", () => sql`update features set archived_at = null, stale = false where name = 'kept-answer-b'`.execute(db));
});

test("what a result shows beside the flag: environments, strategies, tags, a tag type's colour, lifecycle, SDK counts, change requests", async () => {
  await afterWrite("on in production", () =>
    sql`insert into feature_environments (feature_name, environment_name, enabled) values ('kept-answer-a', 'production', true)`.execute(
      db,
    ),
  );
  await afterWrite("a strategy", () =>
    sql`insert into feature_strategies (id, feature_name, environment_name, name) values (gen_random_uuid(), 'kept-answer-a', 'production', 'default')`.execute(
      db,
    ),
  );
  await afterWrite("a tag", () =>
    sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('kept-answer-a', 'simple', 'answer-tag')`.execute(db),
  );
  await afterWrite("a tag type's colour", () => sql`update tag_types set color = '#123456' where name = 'simple'`.execute(db));
  await afterWrite("an environment's order", () =>
    sql`update environments set sort_order = sort_order + 1 where name = 'production'`.execute(db),
  );
  await afterWrite("a lifecycle stage", () =>
    sql`insert into feature_lifecycles (feature_name, stage) values ('kept-answer-a', 'live') on conflict do nothing`.execute(db),
  );
  await afterWrite("SDK counts", () =>
    sql`insert into client_metrics (feature_name, app_name, environment, hour, yes, no)
        values ('kept-answer-a', 'app', 'production', date_trunc('hour', now()), 3, 1)`.execute(db),
  );
  await afterWrite("SDK counts dropped", () => sql`truncate client_metrics`.execute(db));
});

test("a flag made, its creator's event, deleted", async () => {
  await afterWrite("a flag made", () => sql`insert into features (name, project_id) values ('kept-answer-new', 'answers')`.execute(db));
  await afterWrite("its feature-created event", () =>
    sql`insert into events (type, created_by, project, feature_name, data) values ('feature-created', 'a token', 'answers', 'kept-answer-new', '{}')`.execute(
      db,
    ),
  );
  await afterWrite("a flag deleted", () => sql`delete from features where name = 'kept-answer-new'`.execute(db));
});

test("writes of nothing a search reads leave the answers kept", async () => {
  const first = await searchAll(db);
  const before = await generation();
  await sql`update features set stale = true where name = 'no-such-flag'`.execute(db);
  await sql`delete from feature_environments where feature_name = 'no-such-flag'`.execute(db);
  await sql`insert into events (type, created_by, project, feature_name, data) values ('feature-updated', 'someone', 'answers', 'kept-answer-a', '{}')`.execute(
    db,
  );
  await sql`insert into banners (message) values ('kept answers')`.execute(db);
  assert.is(await generation(), before);
  for (const [i, answer] of (await searchAll(db)).entries()) assert.ok(answer === first[i], `search ${i} still answered as kept`);
});

test("a transaction moves it once, at its commit", async () => {
  const before = await generation();
  await db.transaction().execute(async (trx) => {
    await sql`insert into features (name, project_id) values ('kept-answer-one', 'answers')`.execute(trx);
    await sql`update features set stale = true where name = 'kept-answer-one'`.execute(trx);
    await sql`update tag_types set color = '#654321' where name = 'simple'`.execute(trx);
    assert.is(
      BigInt(
        (await sql<{ generation: string }>`select generation from feature_search_answers_generation`.execute(trx)).rows[0]?.generation ??
          -1,
      ),
      before,
      "not before its commit",
    );
  });
  assert.is(await generation(), before + 1n, "three statements of three tables in one transaction: moved once");
  assert.is((await sql<{ n: string }>`select count(*)::text as n from feature_search_answers_moves`.execute(db)).rows[0]?.n, "0");
  await sql`delete from features where name = 'kept-answer-one'`.execute(db);
});

// Two transactions at once need two connections: the embedded database has one.
if (testDb.kind === "postgres")
  test("at commit the answers' generation is locked before the terms', whichever was queued first", async () => {
    // Holds the answers' row: a transaction committing must wait for it before it locks the terms' row.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const lockedFirst = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = db.transaction().execute(async (trx) => {
      await sql`select generation from feature_search_answers_generation for update`.execute(trx);
      locked();
      await held;
    });
    holder.catch(() => locked());
    await lockedFirst;
    const before = await generation();
    // A transaction that queued the terms' move before the answers'.
    const writer = db.transaction().execute(async (trx) => {
      await sql`select vexil_search_terms_queue()`.execute(trx);
      await sql`update features set stale = not stale where name = 'other-c'`.execute(trx);
    });
    // The writer waits on the answers' row at its commit, holding no lock on the terms' row meanwhile.
    let waited = false;
    for (let i = 0; i < 5000 && !waited; i++) {
      const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and lower(query) = 'commit'`.execute(db);
      waited = rows[0]?.n === "1";
      if (!waited) await new Promise((resolve) => setImmediate(resolve));
    }
    try {
      assert.ok(waited, "the writer waits for the answers' row");
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '2s'`.execute(trx);
        await sql`select generation from feature_search_terms_generation for update`.execute(trx);
      });
    } finally {
      release();
      await holder;
      await writer;
    }
    assert.is(await generation(), before + 1n);
    assert.equal(await searchAll(db), await fresh());
  });

test.run();
