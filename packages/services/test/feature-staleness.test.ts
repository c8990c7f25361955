import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createFeature,
  createProject,
  listFeatureTypes,
  markFeaturesStale,
  markPotentiallyStaleFlags,
  NotFoundError,
  patchFeature,
  type Principal,
  projectHealthReport,
  updateFeature,
  updateFeatureTypeLifetime,
  ValidationError,
} from "../src/index.ts";
import { featureSearchResultStatements } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const bob: Principal = { kind: "user", userId: 9, username: "bob", rootRole: 2, via: "session" };

await write(async (trx) => {
  await createProject(trx, null, { id: "lab", name: "Lab" });
  await createProject(trx, null, { id: "other", name: "Other" });
});

const stored = async (project = "lab") => {
  const features = await db
    .selectFrom("features")
    .select(["name", "type", "description", "stale", "potentially_stale", "impression_data"])
    .where("project_id", "=", project)
    .orderBy("name")
    .execute();
  const events = await db
    .selectFrom("events")
    .select(["id", "type", "feature_name", "created_by", "data", "pre_data"])
    .orderBy("id")
    .execute();
  return { features, events };
};
const eventsSince = async (id: number) =>
  (await db.selectFrom("events").select(["type", "feature_name", "created_by"]).where("id", ">", id).orderBy("id").execute()).map((e) => [
    e.type,
    e.feature_name,
    e.created_by,
  ]);
const lastEventId = async () =>
  (
    await db
      .selectFrom("events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst()
  )?.id ?? 0;
/** Makes a flag as old as `days` (created_at cannot be written through Kysely's types, on purpose). */
const age = (name: string, days: number) =>
  sql`update features set created_at = now() - make_interval(days => ${days}) where name = ${name}`.execute(db);

test("feature types are Unleash 8.2's, in its order", async () => {
  assert.equal(
    (await listFeatureTypes(db)).map((t) => [t.id, t.name, t.lifetimeDays]),
    [
      ["release", "Release", 40],
      ["experiment", "Experiment", 40],
      ["operational", "Operational", 7],
      ["kill-switch", "Kill switch", null],
      ["permission", "Permission", null],
      ["sunset", "Sunset", 90],
    ],
  );
  assert.is((await listFeatureTypes(db))[0]?.description, "Roll out new or incomplete features. Expected lifetime ~40 days");
});

test("markFeaturesStale: one event per flag whose mark changed, none for the others", async () => {
  for (const name of ["s-a", "s-b", "s-c"]) await createFeature(db, bob, "lab", { name });
  const from = await lastEventId();
  await markFeaturesStale(db, bob, "lab", { features: ["s-a", "s-b", "s-a"], stale: true });
  await markFeaturesStale(db, bob, "lab", { features: ["s-b", "s-c"], stale: true });
  await markFeaturesStale(db, bob, "lab", { features: ["s-a"], stale: false });
  await markFeaturesStale(db, bob, "lab", { features: [], stale: false });
  assert.equal(await eventsSince(from), [
    ["feature-stale-on", "s-a", "bob"],
    ["feature-stale-on", "s-b", "bob"],
    ["feature-stale-on", "s-c", "bob"],
    ["feature-stale-off", "s-a", "bob"],
  ]);
  assert.equal(
    (await stored()).features.filter((f) => f.name.startsWith("s-")).map((f) => [f.name, f.stale]),
    [
      ["s-a", false],
      ["s-b", true],
      ["s-c", true],
    ],
  );
});

test("markFeaturesStale: a name that is not a feature of the project is NotFoundError, and nothing changes", async () => {
  await createFeature(db, bob, "other", { name: "elsewhere" });
  const before = await stored();
  const missing = await rejects(markFeaturesStale(db, bob, "lab", { features: ["s-a", "ghost", "elsewhere"], stale: true }), NotFoundError);
  assert.is(missing.message, 'The project "lab" has no feature named "elsewhere", "ghost"; no feature was changed.');
  const project = await rejects(markFeaturesStale(db, bob, "nope", { features: ["s-a"], stale: true }), NotFoundError);
  assert.is(project.message, 'The project "nope" does not exist.');
  assert.equal(await stored(), before);
});

test("patchFeature: writes description, type, stale and impressionData, with Unleash's events", async () => {
  await createFeature(db, bob, "lab", { name: "p-one", description: "first" });
  const from = await lastEventId();
  const patched = await patchFeature(db, bob, { projectId: "lab", featureName: "p-one" }, [
    { op: "test", path: "/name", value: "p-one" },
    { op: "replace", path: "/stale", value: true },
    { op: "replace", path: "/type", value: "sunset" },
    { op: "remove", path: "/description" },
    { op: "replace", path: "/impressionData", value: true },
  ]);
  assert.equal([patched.stale, patched.type, patched.description, patched.impressionData], [true, "sunset", null, true]);
  assert.equal(await eventsSince(from), [
    ["feature-metadata-updated", "p-one", "bob"],
    ["feature-stale-on", "p-one", "bob"],
  ]);
  const metadata = await db
    .selectFrom("events")
    .selectAll()
    .where("type", "=", "feature-metadata-updated")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  assert.equal(
    [
      (metadata.pre_data as { stale: boolean }).stale,
      (metadata.data as { stale: boolean }).stale,
      (metadata.data as { type: string }).type,
    ],
    [false, true, "sunset"],
  );
  // The same values again: no write, no event.
  const again = await lastEventId();
  await patchFeature(db, bob, { projectId: "lab", featureName: "p-one" }, [{ op: "replace", path: "/stale", value: true }]);
  assert.equal(await eventsSince(again), []);
});

test("patchFeature and updateFeature refuse other members, ill-typed results and unknown types; nothing changes", async () => {
  const before = await stored();
  const path = { projectId: "lab", featureName: "p-one" };
  const refused: [Parameters<typeof patchFeature>[3], string][] = [
    [[{ op: "replace", path: "/name", value: "renamed" }], "patch.0"],
    [[{ op: "add", path: "/foo", value: 1 }], "patch.0"],
    [[{ op: "replace", path: "/createdAt", value: "2020-01-01T00:00:00.000Z" }], "patch.0"],
    [[{ op: "replace", path: "/variants", value: [] }], "patch.0"],
    [[{ op: "move", from: "/project", path: "/description" }], "patch.0"],
    [[{ op: "replace", path: "", value: {} }], "patch.0"],
    [[{ op: "replace", path: "/stale", value: "yes" }], "stale"],
    [[{ op: "remove", path: "/impressionData" }], "impressionData"],
    [[{ op: "replace", path: "/description", value: 5 }], "description"],
    [[{ op: "replace", path: "/type", value: "banana" }], "type"],
    [[{ op: "test", path: "/stale", value: false }], "patch.0"],
    [
      [
        { op: "replace", path: "/stale", value: false },
        { op: "replace", path: "/missing/x", value: 1 },
      ],
      "patch.1",
    ],
  ];
  for (const [patch, field] of refused) {
    const error = await rejects(patchFeature(db, bob, path, patch), ValidationError);
    assert.ok(
      error.details.some((d) => d.path === field),
      `${JSON.stringify(patch)}: ${JSON.stringify(error.details)}`,
    );
  }
  const variants = await rejects(patchFeature(db, bob, path, [{ op: "replace", path: "/variants", value: [] }]), ValidationError);
  assert.match(variants.message, "/environments/{environment}/variants");
  const put = await rejects(updateFeature(db, bob, path, { type: "banana" }), ValidationError);
  assert.equal(
    put.details.map((d) => d.path),
    ["type"],
  );
  assert.match(put.message, "release, experiment, operational, kill-switch, permission, sunset");
  await rejects(
    patchFeature(db, bob, { projectId: "other", featureName: "p-one" }, [{ op: "replace", path: "/stale", value: false }]),
    NotFoundError,
  );
  assert.equal(await stored(), before);
});

test("potentially stale: a flag older than its type's lifetime, once, by system; stale and archived flags keep their mark", async () => {
  await write(async (trx) => {
    await createProject(trx, null, { id: "aging", name: "Aging" });
    for (const [name, type] of [
      ["old-release", "release"],
      ["young-release", "release"],
      ["old-ops", "operational"],
      ["old-kill", "kill-switch"],
      ["old-stale", "release"],
      ["old-archived", "release"],
    ]) {
      await createFeature(trx, bob, "aging", { name: name as string, type });
    }
  });
  for (const name of ["old-release", "old-kill", "old-stale", "old-archived"]) await age(name, 41);
  await age("old-ops", 8);
  await age("young-release", 39);
  await markFeaturesStale(db, bob, "aging", { features: ["old-stale"], stale: true });
  await db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", "old-archived").execute();
  const from = await lastEventId();

  const changes = await markPotentiallyStaleFlags(db);
  assert.equal(changes, { on: ["old-ops", "old-release"], off: [] });
  assert.equal(await eventsSince(from), [
    ["feature-potentially-stale-on", "old-ops", "system"],
    ["feature-potentially-stale-on", "old-release", "system"],
  ]);
  assert.equal(await markPotentiallyStaleFlags(db), { on: [], off: [] }, "a second pass finds nothing to do");
  const flags = (await stored("aging")).features.map((f) => [f.name, f.potentially_stale]);
  assert.equal(flags, [
    ["old-archived", false],
    ["old-kill", false],
    ["old-ops", true],
    ["old-release", true],
    ["old-stale", false],
    ["young-release", false],
  ]);
});

test("potentially stale: concurrent passes record one event per flag", async () => {
  await write(async (trx) => {
    for (let i = 0; i < 20; i++) await createFeature(trx, bob, "aging", { name: `race-${i}` });
  });
  await sql`update features set created_at = now() - interval '50 days' where name like 'race-%'`.execute(db);
  const from = await lastEventId();
  const passes = await Promise.all([markPotentiallyStaleFlags(db), markPotentiallyStaleFlags(db), markPotentiallyStaleFlags(db)]);
  const events = await eventsSince(from);
  assert.is(events.length, 20, JSON.stringify(events));
  assert.is(new Set(events.map((e) => e[1])).size, 20);
  assert.is(
    passes.reduce((n, p) => n + p.on.length, 0),
    20,
    "each flag was turned on by exactly one pass",
  );
});

test("a lifetime change reassesses its type's flags at once; marking not stale lets the next pass look again", async () => {
  const from = await lastEventId();
  // Raised past their age: no longer potentially stale, and no event says so (as in Unleash).
  const raised = await updateFeatureTypeLifetime(db, bob, "OPERATIONAL", 30);
  assert.equal(raised, {
    id: "operational",
    name: "Operational",
    description: "Transition between technical implementations with minimal risk. Expected lifetime: ~7 days",
    lifetimeDays: 30,
  });
  const flag = (name: string) => db.selectFrom("features").select("potentially_stale").where("name", "=", name).executeTakeFirstOrThrow();
  assert.is((await flag("old-ops")).potentially_stale, false);
  // 0 means never, stored as null.
  assert.is((await updateFeatureTypeLifetime(db, bob, "kill-switch", 0)).lifetimeDays, null);
  // Lowered under their age: potentially stale at once, by system.
  await updateFeatureTypeLifetime(db, bob, "operational", 5);
  assert.is((await flag("old-ops")).potentially_stale, true);
  assert.equal(await eventsSince(from), [
    ["feature-type-updated", null, "bob"],
    ["feature-type-updated", null, "bob"],
    ["feature-type-updated", null, "bob"],
    ["feature-potentially-stale-on", "old-ops", "system"],
  ]);
  const typeEvent = await db
    .selectFrom("events")
    .selectAll()
    .where("type", "=", "feature-type-updated")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  assert.equal(
    [(typeEvent.pre_data as { lifetimeDays: number }).lifetimeDays, (typeEvent.data as { lifetimeDays: number }).lifetimeDays],
    [7, 30],
  );
  await rejects(updateFeatureTypeLifetime(db, bob, "ghost", 5), NotFoundError);

  // A stale flag is left alone; once not stale, the next pass reassesses it.
  await markFeaturesStale(db, bob, "aging", { features: ["old-stale"], stale: false });
  assert.equal((await markPotentiallyStaleFlags(db)).on, ["old-stale"]);
});

test("projectHealthReport counts the flags that are not archived, as Unleash does", async () => {
  const report = await projectHealthReport(db, "aging");
  // 25 flags not archived: 20 races, old-release, young-release, old-ops, old-kill, old-stale.
  const names = report.features.map((f) => f.name);
  assert.not.ok(names.includes("old-archived"));
  assert.is(names.length, 25);
  await markFeaturesStale(db, bob, "aging", { features: ["race-0", "race-1"], stale: true });
  const after = await projectHealthReport(db, "aging");
  // Potentially stale, live: old-release, old-ops (5 days), old-stale, race-2..19 (18); kill-switch never.
  assert.equal([after.staleCount, after.activeCount, after.potentiallyStaleCount], [2, 23, 21]);
  assert.is(after.health, Math.round(100 - (2 / 25) * 100 - (21 / 25) * 100));
  assert.is(after.technicalDebt, 100 - after.health);
  assert.equal(
    after.environments.map((e) => e.environment),
    [],
  );
  await rejects(projectHealthReport(db, "ghost"), NotFoundError);
});

// Before the tests of passes over many flags, which analyze the events: this one needs them analyzed while few.
test("after a pass that marks many flags, a connection plans the search's reads of their events again", async () => {
  await write((trx) => createProject(trx, null, { id: "planned", name: "Planned" }));
  // The search's extras (tags, ..., creator), whose creator is read from the flag's events.
  const { sql: extras } = featureSearchResultStatements(db, []).extras.compile();
  // As autovacuum leaves a new instance's events: analyzed while they were few.
  await sql`analyze events`.execute(db);
  // One connection, holding a generic plan as each of the server's does after a few searches.
  await db.connection().execute(async (conn) => {
    let prepared = false;
    try {
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      await sql.raw(`prepare planned_extras(text[]) as ${extras}`).execute(conn);
      prepared = true;
      const eventScans = async () => {
        const { rows } = await sql<{ "QUERY PLAN": string }>`explain (costs off) execute planned_extras('{planned-1,planned-2}')`.execute(
          conn,
        );
        return rows.map((r) => r["QUERY PLAN"].replace(/^\s*(->\s*)?/, "")).filter((line) => / on events\b/.test(line));
      };
      // While the events are few, reading all of them is the cheapest plan, and it is kept.
      const before = await eventScans();
      assert.ok(before.length > 0 && before.every((line) => line.startsWith("Seq Scan on events")), before.join("\n"));
      await sql`insert into features (name, project_id, type, created_at)
                select 'planned-' || g, 'planned', 'release', now() - interval '100 days' from generate_series(1, 2000) g`.execute(conn);
      const changes = await markPotentiallyStaleFlags(conn);
      assert.is(changes.on.filter((name) => name.startsWith("planned-")).length, 2000);
      assert.is(changes.statisticsFailed, undefined);
      // 2,000 events more: kept, that plan would read them all for each flag of a page.
      const after = await eventScans();
      assert.ok(after.length > 0 && after.every((line) => !line.startsWith("Seq Scan")), after.join("\n"));
    } finally {
      await sql`reset plan_cache_mode`.execute(conn);
      if (prepared) await sql`deallocate planned_extras`.execute(conn);
    }
  });
});

test("a pass that marks many flags leaves no pending list in the search indexes (searches read it whole)", async () => {
  await write((trx) => createProject(trx, null, { id: "bulk", name: "Bulk" }));
  await sql`insert into features (name, project_id, type, created_at)
            select 'bulk-' || g, 'bulk', 'release', now() - interval '100 days' from generate_series(1, 150) g`.execute(db);
  const changes = await markPotentiallyStaleFlags(db);
  assert.is(changes.on.filter((name) => name.startsWith("bulk-")).length, 150);
  for (const index of ["features_name_trgm_idx", "features_description_trgm_idx"]) {
    // What is still pending, moved now: nothing, the index being written straight.
    const { rows } = await sql<{ present: boolean; moved: string | null }>`
      select to_regclass(${index}) is not null as present, gin_clean_pending_list(to_regclass(${index}))::text as moved`.execute(db);
    assert.equal(rows[0], { present: true, moved: "0" }, index);
  }
});

test("a pass run by a role that does not own the tables is committed, its statistics gathered where it may", async () => {
  await sql`insert into features (name, project_id, type, created_at)
            select 'unowned-' || g, 'bulk', 'release', now() - interval '100 days' from generate_series(1, 120) g`.execute(db);
  const role = `vexil_not_owner_${process.pid}`;
  await sql`create role ${sql.id(role)}`.execute(db);
  await sql`grant all on all tables in schema public to ${sql.id(role)}`.execute(db);
  await sql`grant all on all sequences in schema public to ${sql.id(role)}`.execute(db);
  try {
    // One connection, as a role that may write the flags but does not own their indexes.
    const changes = await db.connection().execute(async (conn) => {
      await sql`set role ${sql.id(role)}`.execute(conn);
      try {
        return await markPotentiallyStaleFlags(conn);
      } finally {
        await sql`reset role`.execute(conn);
      }
    });
    assert.is(changes.on.filter((name) => name.startsWith("unowned-")).length, 120);
    // ANALYZE skips what the role may not analyze with a warning (Postgres 15), or runs (MAINTAIN, from 17): no failure.
    assert.is(changes.statisticsFailed, undefined);
    const marked = await db
      .selectFrom("features")
      .select("name")
      .where("name", "like", "unowned-%")
      .where("potentially_stale", "=", true)
      .execute();
    assert.is(marked.length, 120);
  } finally {
    await sql`revoke all on all tables in schema public from ${sql.id(role)}`.execute(db);
    await sql`revoke all on all sequences in schema public from ${sql.id(role)}`.execute(db);
    await sql`drop role ${sql.id(role)}`.execute(db);
  }
});

test("a pass over more flags than one statement can carry records every event, in name order", async () => {
  await write((trx) => createProject(trx, null, { id: "many", name: "Many" }));
  // 9,000 events of eight values each would be 72,000 parameters in one statement: over Postgres's 65,535.
  await sql`insert into features (name, project_id, type, created_at)
            select 'many-' || lpad(g::text, 5, '0'), 'many', 'release', now() - interval '100 days' from generate_series(1, 9000) g`.execute(
    db,
  );
  const from = await lastEventId();
  const changes = await markPotentiallyStaleFlags(db);
  const expected = Array.from({ length: 9000 }, (_, i) => `many-${String(i + 1).padStart(5, "0")}`);
  assert.equal(changes.on, expected);
  const events = await eventsSince(from);
  assert.equal(
    events.map((e) => e[1]),
    expected,
  );
  assert.ok(events.every(([type, , by]) => type === "feature-potentially-stale-on" && by === "system"));
  assert.equal(await markPotentiallyStaleFlags(db), { on: [], off: [] }, "a second pass finds nothing to do");
});

test.after(async () => {
  await testDb.close();
});

test.run();
