import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { KeptAnswers } from "../src/feature-search/kept-answers.ts";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// A search's whole answer is kept by each instance under the answers' generation, which every write
// to what a search reads or shows moves by trigger at its commit (docs/search.md#one-query).
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

const HOUR = 3_600_000;

/**
 * Waits, if the database's clock is within 10 s of an hour's turn, until 2 s after it: an answer
 * read in an hour's first second is not kept, and none serves past its hour (docs/search.md#one-query).
 * A wait for the clock, not for another task: these tests compare answers kept within one hour.
 */
async function clearOfHourTurn(): Promise<void> {
  const { rows } = await sql<{ ms: number }>`select round(date_part('epoch', clock_timestamp()) * 1000)::float8 as ms`.execute(db);
  const into = (rows[0]?.ms ?? 0) % HOUR;
  if (into > HOUR - 10_000 || into < 2_000) await new Promise((resolve) => setTimeout(resolve, (HOUR - into + 2_000) % HOUR));
}

/** Whether every search was answered with the very answer kept by the one before. */
const same = (answers: unknown[], kept: unknown[]) => answers.length === kept.length && answers.every((a, i) => a === kept[i]);

/** Searches (keeping the answers), writes, and finds them moved and equal to a fresh instance's. */
async function afterWrite(what: string, write: () => Promise<unknown>): Promise<void> {
  await clearOfHourTurn();
  const kept = await searchAll(db);
  assert.ok(same(await searchAll(db), kept), `before ${what}, each search is answered as kept`);
  const before = await generation();
  await write();
  assert.is(await generation(), before + 1n, `${what} moves the generation once`);
  const answers = await searchAll(db);
  assert.equal(answers, await fresh(), `after ${what}, the kept answers are a fresh instance's`);
}

/**
 * A transaction that takes a lock with `lock` and holds it until released, then runs `after` and
 * commits; returned once the lock is held. `release` resolves when that transaction has ended.
 */
async function holdLock(
  lock: (trx: Transaction<Database>) => Promise<unknown>,
  after?: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<{ release: () => Promise<void> }> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => {};
  const lockedFirst = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await held;
    await after?.(trx);
  });
  // Settles `lockedFirst` too if the transaction fails before it holds the lock.
  holder.catch(() => locked());
  await lockedFirst;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

/** Whether a session of this database comes to wait for a lock, within 10 s, its statement (in lower case) like `pattern`. */
async function waitsForLock(pattern: string): Promise<boolean> {
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and lower(query) like ${pattern}`.execute(db);
    if (rows[0]?.n === "1") return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
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
  await clearOfHourTurn();
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
  await afterWrite("SDK counts deleted", () => sql`delete from client_metrics where feature_name = 'kept-answer-a'`.execute(db));
  await sql`insert into client_metrics (feature_name, app_name, environment, hour, yes, no)
            values ('kept-answer-a', 'app', 'production', date_trunc('hour', now()), 5, 0)`.execute(db);
  await afterWrite("SDK counts truncated", () => sql`truncate client_metrics`.execute(db));
});

test("a flag made, its creator's event, deleted", async () => {
  await afterWrite("a flag made", () => sql`insert into features (name, project_id) values ('kept-answer-new', 'answers')`.execute(db));
  await afterWrite("its feature-created event", () =>
    sql`insert into events (type, created_by, project, feature_name, data) values ('feature-created', 'a token', 'answers', 'kept-answer-new', '{}')`.execute(
      db,
    ),
  );
  await afterWrite("its event changed", () =>
    sql`update events set created_by = 'another token' where feature_name = 'kept-answer-new' and type = 'feature-created'`.execute(db),
  );
  await afterWrite("its event made another type", () =>
    sql`update events set type = 'feature-updated' where feature_name = 'kept-answer-new' and type = 'feature-created'`.execute(db),
  );
  await afterWrite("made one again", () =>
    sql`update events set type = 'feature-created' where feature_name = 'kept-answer-new' and type = 'feature-updated'`.execute(db),
  );
  await afterWrite("its event deleted", () =>
    sql`delete from events where feature_name = 'kept-answer-new' and type = 'feature-created'`.execute(db),
  );
  await afterWrite("a flag deleted", () => sql`delete from features where name = 'kept-answer-new'`.execute(db));
});

test("a project's environment replaced, a strategy's segment replaced (updates of link tables)", async () => {
  await sql`insert into environments (name, type) values ('answers-staging', 'test')`.execute(db);
  await afterWrite("a project's environment replaced", () =>
    sql`update project_environments set environment_name = 'answers-staging' where project_id = 'answers' and environment_name = 'development'`.execute(
      db,
    ),
  );
  const segments = await sql<{ id: number }>`insert into segments (name) values ('answers-one'), ('answers-two') returning id`.execute(db);
  const [one, two] = segments.rows.map((r) => r.id);
  await sql`insert into feature_strategy_segments (strategy_id, segment_id)
            select id, ${one} from feature_strategies where feature_name = 'kept-answer-a'`.execute(db);
  await afterWrite("a strategy's segment replaced", () =>
    sql`update feature_strategy_segments set segment_id = ${two} where segment_id = ${one}`.execute(db),
  );
});

test("an answer serves in its hour and generation only; a newer generation drops the older; the bounds", async () => {
  const result = (await searchAll(db))[0]?.features[0];
  assert.ok(result);
  const answer = (results: number) => Object.freeze({ features: Array.from({ length: results }, () => result), total: results });
  const at = (generation: number, now: number) => ({ generation: String(generation), now });
  const hour = Date.UTC(2026, 10, 29, 17);
  const kept = new KeptAnswers();
  const a = answer(1);
  kept.set("a", at(5, hour + 1_800_000), a);
  assert.ok(kept.get("a", at(5, hour + 3_599_999)) === a, "in the same hour");
  assert.is(kept.get("a", at(5, hour + 3_600_000)), undefined, "not in the next");
  kept.set("first-second", at(5, hour + 999), answer(1));
  assert.is(kept.get("first-second", at(5, hour + 1_000)), undefined, "read in the hour's first second: not kept");
  kept.set("b", at(5, hour + 2_000), answer(1));
  assert.is(kept.get("b", at(6, hour + 2_001)), undefined, "another generation");
  assert.is(kept.has("a") || kept.has("b"), false, "a newer generation read: the older dropped");
  kept.set("older", at(5, hour + 2_002), answer(1));
  assert.is(kept.has("older"), false, "an answer read under an older generation than one read: not kept");
  kept.set("c", at(6, hour + 2_003), answer(1));
  assert.is(kept.get("c", at(5, hour + 2_004)), undefined, "read again under an older generation (an older snapshot): not served");
  assert.ok(kept.has("c"), "and not dropped");
  for (let i = 0; i < 2_000; i++) kept.set(`k${i}`, at(6, hour + 2_000), answer(0));
  assert.ok(kept.get("k0", at(6, hour + 2_005)), "k0 used: the most recently used now");
  kept.set("k2000", at(6, hour + 2_000), answer(0));
  assert.is(kept.has("k1"), false, "2,000 answers at most: the least recently used gone");
  assert.ok(kept.has("k0") && kept.has("k2") && kept.has("k2000"));
  for (let i = 0; i <= 100; i++) kept.set(`r${i}`, at(6, hour + 2_000), answer(1_000));
  assert.is(kept.has("r0"), false, "100,000 results at most");
  assert.ok(kept.has("r1") && kept.has("r100"));
});

// Two connections at once: the embedded database has one.
if (testDb.kind === "postgres")
  test("names looked up before a write that changed what the terms match: the page read after it is not kept", async () => {
    await clearOfHourTurn();
    const query = featureSearchQuerySchema.parse({ query: "answer-race", sortBy: "name" });
    await sql`insert into features (name, project_id) values ('answer-race-a', 'answers')`.execute(db);
    // Holds the answers' generation: the search's terms are looked up, and its page (which reads the
    // generation) waits; meanwhile a flag the terms match is added and committed by the holder.
    const holder = await holdLock(
      (trx) => sql`lock table feature_search_answers_generation in access exclusive mode`.execute(trx),
      (trx) => sql`insert into features (name, project_id) values ('answer-race-b', 'answers')`.execute(trx),
    );
    try {
      const searched = searchFeatures(db, query);
      try {
        assert.ok(await waitsForLock("%feature_search_answers_generation%"), "the search's page waits for the generation");
      } finally {
        await holder.release();
      }
      assert.equal(
        (await searched).features.map((f) => f.name),
        ["answer-race-a"],
        "the page over the names looked up before the flag was added",
      );
      const again = await searchFeatures(db, query);
      assert.equal(
        again.features.map((f) => f.name),
        ["answer-race-a", "answer-race-b"],
      );
      assert.equal(again, await searchFeatures(db.withoutPlugins(), query));
    } finally {
      await sql`delete from features where name like 'answer-race-%'`.execute(db);
    }
  });

test("writes of nothing a search reads leave the answers kept", async () => {
  await sql`insert into client_metrics (feature_name, app_name, environment, hour, yes, no)
            values ('kept-answer-a', 'app', 'production', date_trunc('hour', now()) - interval '3 days', 1, 1)`.execute(db);
  await clearOfHourTurn();
  const first = await searchAll(db);
  const before = await generation();
  await sql`update features set stale = true where name = 'no-such-flag'`.execute(db);
  await sql`delete from feature_environments where feature_name = 'no-such-flag'`.execute(db);
  await sql`insert into events (type, created_by, project, feature_name, data) values ('feature-updated', 'someone', 'answers', 'kept-answer-a', '{}')`.execute(
    db,
  );
  await sql`insert into banners (message) values ('kept answers')`.execute(db);
  // Days-old hours, as housekeeping rolls them up: no search shows them.
  await sql`delete from client_metrics where hour < now() - interval '2 days'`.execute(db);
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
    const holder = await holdLock((trx) => sql`select generation from feature_search_answers_generation for update`.execute(trx));
    const before = await generation();
    // A transaction that queued the terms' move before the answers'.
    const writer = db.transaction().execute(async (trx) => {
      await sql`select vexil_search_terms_queue()`.execute(trx);
      await sql`update features set stale = not stale where name = 'other-c'`.execute(trx);
    });
    // The writer waits on the answers' row at its commit, holding no lock on the terms' row meanwhile.
    try {
      assert.ok(await waitsForLock("commit"), "the writer waits for the answers' row");
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '2s'`.execute(trx);
        await sql`select generation from feature_search_terms_generation for update`.execute(trx);
      });
    } finally {
      await holder.release();
      await writer;
    }
    assert.is(await generation(), before + 1n);
    assert.equal(await searchAll(db), await fresh());
  });

test.run();
