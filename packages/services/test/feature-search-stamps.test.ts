import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// What a search result shows besides the flag's columns is kept by each instance under the flag's
// stamp and the epoch (docs/search.md#one-query). After every kind of write, the page an instance
// that kept it answers must be the page of an instance that never searched (a handle of its own,
// with nothing kept), and must show the write.
const testDb = await openTestDb();
const db = testDb.kysely;

const query = featureSearchQuerySchema.parse({ project: "IS:stamps", sortBy: "name" });
const search = async (on: Kysely<Database>) => (await searchFeatures(on, query)).features;
/** Another instance's view: a handle with nothing kept. */
const fresh = () => search(db.withoutPlugins());
type Result = Awaited<ReturnType<typeof search>>[number];

/** Searches (keeping the page), writes, and finds this instance's page equal to a fresh one; returns the flag `name` as found. */
async function afterWrite(what: string, write: () => Promise<unknown>, name = "stamps-a"): Promise<Result> {
  await search(db);
  await write();
  const kept = await search(db);
  assert.equal(kept, await fresh(), `after ${what}, the kept page is a fresh one`);
  const found = kept.find((f) => f.name === name);
  assert.ok(found, `${name} is on the page after ${what}`);
  return found;
}

const environment = (f: Result, name: string) => {
  const e = f.environments.find((x) => x.name === name);
  assert.ok(e, `${f.name} shows ${name}`);
  return e;
};

let userId = 0;
test.before(async () => {
  await sql`insert into projects (id, name) values ('stamps', 'stamps'), ('stamps-other', 'stamps-other')`.execute(db);
  await sql`insert into project_environments (project_id, environment_name) values ('stamps', 'development'), ('stamps-other', 'development'), ('stamps-other', 'production')`.execute(
    db,
  );
  const user = await sql<{
    id: number;
  }>`insert into users (username, name, email, root_role) values ('maker', 'Maker', 'maker@example.com', 1) returning id`.execute(db);
  userId = user.rows[0]?.id ?? 0;
  await sql`insert into features (name, project_id) values ('stamps-a', 'stamps'), ('stamps-b', 'stamps'), ('stamps-c', 'stamps')`.execute(
    db,
  );
  await sql`insert into events (type, created_by, created_by_user_id, project, feature_name, data)
            values ('feature-created', 'maker', ${userId}, 'stamps', 'stamps-a', '{}')`.execute(db);
  await sql`insert into tag_types (name) values ('simple') on conflict do nothing`.execute(db);
  await sql`insert into tags (type, value) values ('simple', 'blue'), ('simple', 'green') on conflict do nothing`.execute(db);
});
test.after(() => testDb.close());

test("a kept page is used: a write that moves no stamp (triggers off) is not seen until one moves", async () => {
  const before = await search(db);
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('stamps-c', 'simple', 'green')`.execute(trx);
  });
  // Every answer read again, flag by flag (docs/search.md#one-query): the flags' kept parts still serve.
  await sql`update feature_search_answers_generation set generation = generation + 1`.execute(db);
  assert.equal(await search(db), before, "kept: the write moved no stamp");
  assert.equal((await fresh()).find((f) => f.name === "stamps-c")?.tags, [{ type: "simple", value: "green", color: "#FFFFFF" }]);
  await sql`delete from feature_tags where feature_name = 'stamps-c'`.execute(db);
  assert.equal(await search(db), await fresh());
});

test("tags, a tag type's colour", async () => {
  let a = await afterWrite("a tag added", () =>
    sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('stamps-a', 'simple', 'blue')`.execute(db),
  );
  assert.equal(a.tags, [{ type: "simple", value: "blue", color: "#FFFFFF" }]);
  a = await afterWrite("a colour", () => sql`update tag_types set color = '#00ff00' where name = 'simple'`.execute(db));
  assert.equal(a.tags, [{ type: "simple", value: "blue", color: "#00ff00" }]);
  a = await afterWrite("a tag removed", () => sql`delete from feature_tags where feature_name = 'stamps-a'`.execute(db));
  assert.equal(a.tags, []);
});

test("an environment turned on, its variants, its order; the project's environments", async () => {
  let a = await afterWrite("turned on", () =>
    sql`insert into feature_environments (feature_name, environment_name, enabled) values ('stamps-a', 'development', true)`.execute(db),
  );
  assert.is(environment(a, "development").enabled, true);
  a = await afterWrite("variants", () =>
    sql`update feature_environments set variants = '[{"name": "v1", "weight": 1000, "weightType": "variable", "stickiness": "default"}]'
        where feature_name = 'stamps-a'`.execute(db),
  );
  assert.is(environment(a, "development").variantCount, 1);
  a = await afterWrite("an environment's order", () =>
    sql`update environments set sort_order = 150 where name = 'development'`.execute(db),
  );
  assert.is(environment(a, "development").sortOrder, 150);
  a = await afterWrite("an environment added to the project", () =>
    sql`insert into project_environments (project_id, environment_name) values ('stamps', 'production')`.execute(db),
  );
  assert.equal(
    a.environments.map((e) => e.name),
    ["development", "production"],
  );
});

test("strategies, segments on them and a segment's name", async () => {
  const id = "5a1a6f0e-9d4e-4c53-8a38-5d3b0a7c0001";
  let a = await afterWrite("a strategy", () =>
    sql`insert into feature_strategies (id, feature_name, environment_name, name) values (${id}, 'stamps-a', 'development', 'default')`.execute(
      db,
    ),
  );
  assert.equal([environment(a, "development").hasStrategies, environment(a, "development").hasEnabledStrategies], [true, true]);
  a = await afterWrite("a strategy disabled", () => sql`update feature_strategies set disabled = true where id = ${id}`.execute(db));
  assert.is(environment(a, "development").hasEnabledStrategies, false);
  const segment = await sql<{ id: number }>`insert into segments (name) values ('beta') returning id`.execute(db);
  const segmentId = segment.rows[0]?.id ?? 0;
  a = await afterWrite("a segment on it", () =>
    sql`insert into feature_strategy_segments (strategy_id, segment_id) values (${id}, ${segmentId})`.execute(db),
  );
  assert.equal(a.segments, ["beta"]);
  a = await afterWrite("a segment renamed", () => sql`update segments set name = 'beta-testers' where id = ${segmentId}`.execute(db));
  assert.equal(a.segments, ["beta-testers"]);
  a = await afterWrite("a strategy deleted", () => sql`delete from feature_strategies where id = ${id}`.execute(db));
  assert.equal([a.segments, environment(a, "development").hasStrategies], [[], false]);
});

test("dependencies, lifecycle, creator's name", async () => {
  let a = await afterWrite("a dependency", () =>
    sql`insert into feature_dependencies (child, parent) values ('stamps-a', 'stamps-b')`.execute(db),
  );
  assert.is(a.dependencyType, "child");
  const b = (await search(db)).find((f) => f.name === "stamps-b");
  assert.is(b?.dependencyType, "parent");
  a = await afterWrite("a dependency removed", () => sql`delete from feature_dependencies where child = 'stamps-a'`.execute(db));
  assert.is(a.dependencyType, null);
  a = await afterWrite("a stage", () =>
    sql`insert into feature_lifecycles (feature_name, stage, entered_at) values ('stamps-a', 'live', now())`.execute(db),
  );
  assert.is(a.lifecycle?.stage, "live");
  a = await afterWrite("the creator renamed", () => sql`update users set name = 'Maker Renamed' where id = ${userId}`.execute(db));
  assert.is(a.createdBy.name, "Maker Renamed");
});

test("open change requests, SDK counts of the hour, a flag moved, a flag deleted and made again", async () => {
  let a = await afterWrite("a change request", async () => {
    const request = await sql<{ id: number }>`
      insert into change_requests (project_id, environment_name, title, state, created_by_user_id, min_approvals)
      values ('stamps', 'development', 'stamps-a', 'In review', ${userId}, 1) returning id`.execute(db);
    const requestId = request.rows[0]?.id ?? 0;
    await sql`insert into change_request_changes (change_request_id, feature_name, action, payload, created_by_user_id)
              values (${requestId}, 'stamps-a', 'updateEnabled', '{"enabled": true}', ${userId})`.execute(db);
  });
  assert.is(environment(a, "development").changeRequestIds.length, 1);
  a = await afterWrite("a change request applied", () => sql`update change_requests set state = 'Applied'`.execute(db));
  assert.equal(environment(a, "development").changeRequestIds, []);
  a = await afterWrite("SDK counts", () =>
    sql`insert into client_metrics (feature_name, environment, app_name, hour, yes, no)
        values ('stamps-a', 'development', 'app', date_trunc('hour', now()), 3, 4)`.execute(db),
  );
  assert.equal([environment(a, "development").yes, environment(a, "development").no], [3, 4]);
  a = await afterWrite("more SDK counts", () => sql`update client_metrics set yes = yes + 10 where feature_name = 'stamps-a'`.execute(db));
  assert.is(environment(a, "development").yes, 13);
  a = await afterWrite("last seen", () =>
    sql`update feature_environments set last_seen_at = now() where feature_name = 'stamps-a'`.execute(db),
  );
  assert.ok(environment(a, "development").lastSeenAt);
  // Moved: another project's environments. Found by a search of both projects.
  const both = featureSearchQuerySchema.parse({ project: "IS_ANY_OF:stamps,stamps-other", sortBy: "name" });
  await searchFeatures(db, both);
  await sql`update features set project_id = 'stamps-other' where name = 'stamps-b'`.execute(db);
  const moved = (await searchFeatures(db, both)).features;
  assert.equal(moved, (await searchFeatures(db.withoutPlugins(), both)).features);
  assert.equal(
    moved.find((f) => f.name === "stamps-b")?.environments.map((e) => e.name),
    ["development", "production"],
  );
  // Deleted for good and made again under the same name: nothing of the flag before.
  await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('stamps-c', 'simple', 'green')`.execute(db);
  const c = await afterWrite(
    "a flag deleted and made again",
    async () => {
      await sql`delete from features where name = 'stamps-c'`.execute(db);
      await sql`insert into features (name, project_id) values ('stamps-c', 'stamps')`.execute(db);
    },
    "stamps-c",
  );
  assert.equal(c.tags, []);
});

test.run();
