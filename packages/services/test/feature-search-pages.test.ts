import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// A page's times must be those a Date parsed from the stored text holds, and a search made again
// must see what changed since, as a handle that never searched does.
const testDb = await openTestDb();
const db = testDb.kysely;

const search = async (params: Record<string, string>, on = db) => searchFeatures(on, featureSearchQuerySchema.parse(params));
/** Another instance's view: a handle with nothing kept. */
const fresh = (params: Record<string, string>) => search(params, db.withoutPlugins());

test.before(async () => {
  await sql`insert into projects (id, name) values ('pages', 'pages'), ('pages-again', 'pages-again')`.execute(db);
  await sql`insert into project_environments (project_id, environment_name) values ('pages', 'development'), ('pages-again', 'development')`.execute(
    db,
  );
});
test.after(() => testDb.close());

test("times keep their milliseconds, microseconds dropped, before 1970 as after", async () => {
  const times = [
    ["pages-times-a", "2024-05-06 07:08:09.123999+00", "2026-01-02 03:04:05.000001+00", null],
    ["pages-times-b", "1969-12-31 23:59:59.999999+00", "1901-02-03 04:05:06.5+00", "1999-12-31 23:59:59.9995+00"],
    ["pages-times-c", "2000-01-01 00:00:00+00", null, "2001-02-03 04:05:06.007+00"],
  ] as const;
  for (const [name, created, lastSeen, archived] of times)
    await sql`insert into features (name, project_id, created_at, last_seen_at, archived_at)
              values (${name}, 'pages', ${created}::timestamptz, ${lastSeen}::timestamptz, ${archived}::timestamptz)`.execute(db);
  // What pg's parse of the stored text gives, as every other read of these columns does.
  const stored = await sql<{ name: string; created_at: Date; last_seen_at: Date | null; archived_at: Date | null }>`
    select name, created_at, last_seen_at, archived_at from features where name like 'pages-times-%' order by name`.execute(db);
  const page = await search({ query: "pages-times", archived: "IS:true", sortBy: "name" });
  const live = await search({ query: "pages-times", sortBy: "name" });
  const shown = new Map([...page.features, ...live.features].map((f) => [f.name, f]));
  assert.is(shown.size, 3);
  for (const row of stored.rows) {
    const f = shown.get(row.name);
    assert.ok(f, `${row.name} is found`);
    assert.is(f.createdAt.toISOString(), row.created_at.toISOString(), `${row.name} createdAt`);
    assert.is(f.lastSeenAt?.toISOString() ?? null, row.last_seen_at?.toISOString() ?? null, `${row.name} lastSeenAt`);
    assert.is(f.archivedAt?.toISOString() ?? null, row.archived_at?.toISOString() ?? null, `${row.name} archivedAt`);
  }
  assert.is(shown.get("pages-times-a")?.createdAt.toISOString(), "2024-05-06T07:08:09.123Z");
  assert.is(shown.get("pages-times-b")?.createdAt.toISOString(), "1969-12-31T23:59:59.999Z");
  assert.is(shown.get("pages-times-b")?.archivedAt?.toISOString(), "1999-12-31T23:59:59.999Z");
  assert.is(shown.get("pages-times-b")?.lifecycle?.enteredStageAt.toISOString(), "1999-12-31T23:59:59.999Z");
});

test("a search made again sees what changed since: matches, order, filters, names", async () => {
  await sql`insert into features (name, project_id, type) values ('pages-again-a', 'pages-again', 'release'), ('pages-again-b', 'pages-again', 'experiment')`.execute(
    db,
  );
  const byName = { query: "pages-again", sortBy: "name" };
  const releases = { project: "IS:pages-again", type: "IS:release", sortBy: "name", sortOrder: "desc" };
  const queries: Record<string, string>[] = [byName, releases, { project: "IS:pages-again", state: "IS:stale", sortBy: "createdAt" }];
  const same = async (what: string) => {
    for (const q of queries) assert.equal(await search(q), await fresh(q), `${what}: ${JSON.stringify(q)} as a fresh instance finds it`);
  };
  await same("first");
  await same("made again");
  await sql`update features set type = 'release', stale = true where name = 'pages-again-b'`.execute(db);
  await same("after a type and stale changed");
  assert.equal(
    (await search(releases)).features.map((f) => f.name),
    ["pages-again-b", "pages-again-a"],
  );
  await sql`insert into features (name, project_id, type) values ('pages-again-c', 'pages-again', 'release')`.execute(db);
  await same("after a flag was added");
  assert.equal(
    (await search(byName)).features.map((f) => f.name),
    ["pages-again-a", "pages-again-b", "pages-again-c"],
  );
  await sql`delete from features where name = 'pages-again-a'`.execute(db);
  await same("after a flag was deleted");
  assert.equal(
    (await search(byName)).features.map((f) => f.name),
    ["pages-again-b", "pages-again-c"],
  );
});

test.run();
