import { connectDatabase } from "@vexil/db";
import { sql } from "kysely";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startHousekeeping } from "../src/housekeeping.ts";
import { assertError } from "./support/assert-error.ts";
import { until } from "./support/eventually.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const sdk = await clientToken(srv);

async function setup(method: string, path: string, body?: unknown): Promise<any> {
  const res = await srv.call(method, path, { body, headers: admin });
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}
await setup("POST", "/api/admin/projects", { id: "other", name: "Other" });
for (const name of ["st-a", "st-b", "st-c"]) await setup("POST", "/api/admin/projects/default/features", { name });
await setup("POST", "/api/admin/projects/other/features", { name: "st-elsewhere" });

async function stored() {
  const features = await db
    .selectFrom("features")
    .select(["name", "type", "description", "stale", "potentially_stale"])
    .orderBy("name")
    .execute();
  const types = await db.selectFrom("feature_types").selectAll().orderBy("id").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { features, types, events };
}
const lastEventId = async () =>
  (
    await db
      .selectFrom("events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst()
  )?.id ?? 0;
const eventsSince = async (id: number) =>
  (
    await db.selectFrom("events").select(["type", "feature_name", "project", "created_by"]).where("id", ">", id).orderBy("id").execute()
  ).map((e) => [e.type, e.feature_name, e.project, e.created_by]);
const staleOf = async (name: string) =>
  (await db.selectFrom("features").select("stale").where("name", "=", name).executeTakeFirstOrThrow()).stale;
const markStale = (project: string, body: unknown, headers = editor.headers) =>
  srv.call("POST", `/api/admin/projects/${project}/stale`, { body, headers });
const patch = (name: string, body: unknown, headers = editor.headers, project = "default") =>
  srv.call("PATCH", `/api/admin/projects/${project}/features/${name}`, { body, headers });
/** What an SDK is served for a flag, once the read model has heard of the change. */
async function servedStale(name: string, expected: boolean): Promise<void> {
  let last: unknown;
  await until(async () => {
    const res = await srv.call("GET", "/api/client/features", { headers: sdk });
    last = res.json.features.find((f: { name: string }) => f.name === name)?.stale;
    return last === expected;
  }, `the SDK to be served ${name} with stale ${expected} (last ${last})`);
}

test("POST .../stale: 202, stored, an event per flag that changed, and SDKs are served stale", async () => {
  const from = await lastEventId();
  const res = await markStale("default", { features: ["st-a", "st-b"], stale: true });
  assert.is(res.status, 202, JSON.stringify(res.json));
  assert.equal([await staleOf("st-a"), await staleOf("st-b"), await staleOf("st-c")], [true, true, false]);
  await servedStale("st-a", true);
  // Already stale: no event for st-b.
  assert.is((await markStale("default", { features: ["st-b", "st-c"], stale: true })).status, 202);
  assert.is((await markStale("default", { features: ["st-a"], stale: false }, admin)).status, 202);
  assert.is((await markStale("default", { features: [], stale: true })).status, 202);
  const adminName = (await db.selectFrom("events").select("created_by").orderBy("id", "desc").executeTakeFirstOrThrow()).created_by;
  assert.equal(await eventsSince(from), [
    ["feature-stale-on", "st-a", "default", editor.username],
    ["feature-stale-on", "st-b", "default", editor.username],
    ["feature-stale-on", "st-c", "default", editor.username],
    ["feature-stale-off", "st-a", "default", adminName],
  ]);
  await servedStale("st-a", false);
  await servedStale("st-c", true);
});

test("POST .../stale refuses unknown and foreign flags (404), bad bodies (400), viewers (403); nothing changes", async () => {
  const before = await stored();
  const missing = await markStale("default", { features: ["st-a", "nope", "st-elsewhere"], stale: true });
  assertError(missing, 404, "NotFoundError");
  assert.is(missing.json.message, 'The project "default" has no feature named "nope", "st-elsewhere"; no feature was changed.');
  assertError(await markStale("ghost", { features: ["st-a"], stale: true }), 404, "NotFoundError");
  for (const [body, field] of [
    [{ features: ["st-a"] }, "stale"],
    [{ features: "st-a", stale: true }, "features"],
    [{ features: ["st-a"], stale: "yes" }, "stale"],
    [{ features: ["st-a"], stale: true, extra: 1 }, ""],
    [{ features: Array.from({ length: 1001 }, (_, i) => `f${i}`), stale: true }, "features"],
  ] as const) {
    const res = await markStale("default", body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body).slice(0, 100)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  const denied = await markStale("default", { features: ["st-a"], stale: true }, viewer.headers);
  assertError(denied, 403, "NoAccessError");
  assert.is(denied.json.message, 'You need the "UPDATE_FEATURE" permission to perform this action.');
  assertError(await markStale("default", { features: ["st-a"], stale: true }, sdk), 403, "NoAccessError");
  assert.equal(await stored(), before);
});

test("PATCH a feature: 200 with it, stored, feature-metadata-updated and stale on/off, served to SDKs", async () => {
  const from = await lastEventId();
  const res = await patch("st-a", [
    { op: "replace", path: "/stale", value: true },
    { op: "replace", path: "/description", value: "patched" },
    { op: "replace", path: "/type", value: "sunset" },
  ]);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(
    { ...res.json, createdAt: "" },
    {
      name: "st-a",
      project: "default",
      description: "patched",
      type: "sunset",
      impressionData: false,
      createdAt: "",
      stale: true,
      archived: false,
      archivedAt: null,
      lastSeenAt: null,
    },
  );
  assert.equal(await eventsSince(from), [
    ["feature-metadata-updated", "st-a", "default", editor.username],
    ["feature-stale-on", "st-a", "default", editor.username],
  ]);
  await servedStale("st-a", true);
  const off = await patch("st-a", [{ op: "replace", path: "/stale", value: false }]);
  assert.is(off.json.stale, false);
  await servedStale("st-a", false);
  // PUT takes stale too, with the same events.
  const mark = await lastEventId();
  const put = await srv.call("PUT", "/api/admin/projects/default/features/st-a", { body: { stale: true }, headers: editor.headers });
  assert.equal([put.status, put.json.stale], [200, true]);
  assert.equal(
    (await eventsSince(mark)).map((e) => e[0]),
    ["feature-metadata-updated", "feature-stale-on"],
  );
});

test("PATCH a feature: other members, bad results and unknown types are 400; wrong paths 404; viewers 403; nothing changes", async () => {
  const before = await stored();
  for (const [body, field] of [
    [[{ op: "replace", path: "/name", value: "other" }], "patch.0"],
    [[{ op: "add", path: "/foo", value: 1 }], "patch.0"],
    [[{ op: "replace", path: "/variants", value: [] }], "patch.0"],
    [[{ op: "replace", path: "/project", value: "other" }], "patch.0"],
    [[{ op: "replace", path: "/type", value: "nonsense" }], "type"],
    [[{ op: "replace", path: "/stale", value: "yes" }], "stale"],
    [[{ op: "test", path: "/stale", value: false }], "patch.0"],
    [{}, "patch"],
    [[{ op: "replace", path: "/stale" }], "patch.0"],
  ] as const) {
    const res = await patch("st-a", body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assertError(await patch("st-a", [{ op: "replace", path: "/stale", value: false }], editor.headers, "other"), 404, "NotFoundError");
  assertError(await patch("ghost", [{ op: "replace", path: "/stale", value: false }]), 404, "NotFoundError");
  const denied = await patch("st-a", [{ op: "replace", path: "/stale", value: false }], viewer.headers);
  assertError(denied, 403, "NoAccessError");
  assert.is(denied.json.message, 'You need the "UPDATE_FEATURE" permission to perform this action.');
  // An unknown type is refused on create and PUT as well.
  assertError(
    await srv.call("PUT", "/api/admin/projects/default/features/st-a", { body: { type: "nonsense" }, headers: admin }),
    400,
    "ValidationError",
  );
  assertError(
    await srv.call("POST", "/api/admin/projects/default/features", { body: { name: "typed", type: "nonsense" }, headers: admin }),
    400,
    "ValidationError",
  );
  assert.equal(await stored(), before);
});

test("GET /api/admin/feature-types: Unleash's body; PUT .../lifetime: ADMIN, its validation, an event", async () => {
  const list = await srv.call("GET", "/api/admin/feature-types", { headers: viewer.headers });
  assert.is(list.status, 200);
  assert.is(list.json.version, 1);
  assert.equal(list.json.types[0], {
    id: "release",
    name: "Release",
    description: "Roll out new or incomplete features. Expected lifetime ~40 days",
    lifetimeDays: 40,
  });
  assert.equal(
    list.json.types.map((t: { id: string; lifetimeDays: number | null }) => [t.id, t.lifetimeDays]),
    [
      ["release", 40],
      ["experiment", 40],
      ["operational", 7],
      ["kill-switch", null],
      ["permission", null],
      ["sunset", 90],
    ],
  );

  const before = await stored();
  for (const body of [
    {},
    { lifetimeDays: -1 },
    { lifetimeDays: 1.5 },
    { lifetimeDays: "5" },
    { lifetimeDays: 2_147_483_648 },
    { lifetimeDays: 5, x: 1 },
  ]) {
    const res = await srv.call("PUT", "/api/admin/feature-types/release/lifetime", { body, headers: admin });
    assertError(res, 400, "ValidationError");
  }
  const missing = await srv.call("PUT", "/api/admin/feature-types/ghost/lifetime", { body: { lifetimeDays: 5 }, headers: admin });
  assertError(missing, 404, "NotFoundError");
  assert.is(missing.json.message, 'The feature type you tried to update ("ghost") does not exist.');
  const denied = await srv.call("PUT", "/api/admin/feature-types/release/lifetime", { body: { lifetimeDays: 5 }, headers: editor.headers });
  assertError(denied, 403, "NoAccessError");
  assert.is(denied.json.message, 'You need the "ADMIN" permission to perform this action.');
  assert.equal(await stored(), before);

  const from = await lastEventId();
  const res = await srv.call("PUT", "/api/admin/feature-types/Experiment/lifetime", { body: { lifetimeDays: 0 }, headers: admin });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(res.json, {
    id: "experiment",
    name: "Experiment",
    description: "A/B and multivariate testing. Expected lifetime ~40 days",
    lifetimeDays: null,
  });
  const event = await db.selectFrom("events").selectAll().where("id", ">", from).executeTakeFirstOrThrow();
  assert.equal(
    [event.type, event.project, event.feature_name, (event.pre_data as any).lifetimeDays, (event.data as any).lifetimeDays],
    ["feature-type-updated", null, null, 40, null],
  );
  assert.is((await setup("PUT", "/api/admin/feature-types/experiment/lifetime", { lifetimeDays: 40 })).lifetimeDays, 40);
});

test("housekeeping marks flags older than their type's lifetime potentially stale: two instances, one event per flag", async () => {
  for (let i = 0; i < 10; i++)
    await setup("POST", "/api/admin/projects/default/features", { name: `hk-${i}`, type: i < 5 ? "release" : "operational" });
  await sql`update features set created_at = now() - interval '10 days' where name like 'hk-%'`.execute(db);
  await sql`update features set created_at = now() - interval '45 days' where name in ('hk-0', 'hk-1')`.execute(db);
  // A second instance's housekeeping, on connections of its own where Postgres allows them.
  const second = srv.db.databaseUrl ? connectDatabase({ databaseUrl: srv.db.databaseUrl, poolSize: 2 }) : srv.db;
  const otherHousekeeping = startHousekeeping(
    second.kysely,
    pino({ level: "silent" }),
    { sessions: srv.app.deps.loginPolicy.sessions, metricsRetentionDays: 90 },
    0,
  );
  const from = await lastEventId();
  await Promise.all([srv.app.housekeeping.tick(), otherHousekeeping.tick(), srv.app.housekeeping.tick()]);
  await otherHousekeeping.stop();
  if (second !== srv.db) await second.close();

  const events = await eventsSince(from);
  assert.equal(events.map((e) => e[1]).sort(), ["hk-0", "hk-1", "hk-5", "hk-6", "hk-7", "hk-8", "hk-9"]);
  for (const e of events) assert.equal([e[0], e[2], e[3]], ["feature-potentially-stale-on", "default", "system"]);
  const marked = await db.selectFrom("features").select("name").where("potentially_stale", "=", true).orderBy("name").execute();
  assert.equal(
    marked.map((f) => f.name),
    ["hk-0", "hk-1", "hk-5", "hk-6", "hk-7", "hk-8", "hk-9"],
  );
  // Raising the lifetime lifts the mark at once, without an event; the next pass has nothing to do.
  await setup("PUT", "/api/admin/feature-types/operational/lifetime", { lifetimeDays: 30 });
  const after = await lastEventId();
  await srv.app.housekeeping.tick();
  assert.equal(await eventsSince(after), []);
  const still = await db.selectFrom("features").select("name").where("potentially_stale", "=", true).orderBy("name").execute();
  assert.equal(
    still.map((f) => f.name),
    ["hk-0", "hk-1"],
  );
  await setup("PUT", "/api/admin/feature-types/operational/lifetime", { lifetimeDays: 7 });
});

test("GET .../health-report: Unleash's body, counts of the flags that are not archived", async () => {
  await setup("POST", "/api/admin/projects", { id: "health", name: "Health", description: "checked" });
  for (const name of ["h-fresh", "h-old", "h-stale", "h-archived"]) await setup("POST", "/api/admin/projects/health/features", { name });
  await sql`update features set created_at = now() - interval '41 days' where name in ('h-old', 'h-stale', 'h-archived')`.execute(db);
  await setup("POST", "/api/admin/projects/health/stale", { features: ["h-stale"], stale: true });
  await db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", "h-archived").execute();
  await setup("POST", "/api/admin/projects/health/environments", { environment: "development" });

  const res = await srv.call("GET", "/api/admin/projects/health/health-report", { headers: viewer.headers });
  assert.is(res.status, 200, JSON.stringify(res.json));
  const { features, createdAt, ...report } = res.json;
  assert.equal(report, {
    version: 1,
    name: "Health",
    description: "checked",
    defaultStickiness: "default",
    mode: "open",
    featureLimit: null,
    members: 0,
    favorite: false,
    // 3 flags: one stale, one potentially stale.
    health: Math.round(100 - 100 / 3 - 100 / 3),
    technicalDebt: 100 - Math.round(100 - 100 / 3 - 100 / 3),
    environments: [{ environment: "development" }],
    potentiallyStaleCount: 1,
    activeCount: 2,
    staleCount: 1,
  });
  assert.type(createdAt, "string");
  assert.equal(
    features.map((f: { name: string; stale: boolean }) => [f.name, f.stale]),
    [
      ["h-fresh", false],
      ["h-old", false],
      ["h-stale", true],
    ],
  );
  assert.equal(features[0].environments, [
    {
      name: "development",
      type: "development",
      sortOrder: features[0].environments[0].sortOrder,
      enabled: false,
      variantCount: 0,
      lastSeenAt: null,
      hasStrategies: false,
      hasEnabledStrategies: false,
    },
  ]);
  assertError(await srv.call("GET", "/api/admin/projects/ghost/health-report", { headers: admin }), 404, "NotFoundError");
  assertError(await srv.call("GET", "/api/admin/projects/health/health-report", { headers: sdk }), 403, "NoAccessError");
});

test("the admin views show stale, archived, archivedAt and lastSeenAt, per feature and per environment", async () => {
  const seen = new Date("2026-11-20T10:00:00.000Z");
  await db.updateTable("features").set({ last_seen_at: seen }).where("name", "=", "st-b").execute();
  await db
    .insertInto("feature_environments")
    .values({ feature_name: "st-b", environment_name: "development", last_seen_at: seen })
    .onConflict((oc) => oc.columns(["feature_name", "environment_name"]).doUpdateSet({ last_seen_at: seen }))
    .execute();
  const one = await srv.call("GET", "/api/admin/projects/default/features/st-b", { headers: viewer.headers });
  assert.equal([one.json.stale, one.json.archived, one.json.archivedAt, one.json.lastSeenAt], [true, false, null, seen.toISOString()]);
  assert.equal(
    one.json.environments.map((e: { name: string; lastSeenAt: string | null }) => [e.name, e.lastSeenAt]),
    [
      ["development", seen.toISOString()],
      ["production", null],
    ],
  );
  const archivedAt = new Date("2026-11-21T10:00:00.000Z");
  await db.updateTable("features").set({ archived_at: archivedAt }).where("name", "=", "st-c").execute();
  const list = await srv.call("GET", "/api/admin/projects/default/features", { headers: viewer.headers });
  const byName = new Map(list.json.features.map((f: { name: string }) => [f.name, f]));
  const b = byName.get("st-b") as any;
  const c = byName.get("st-c") as any;
  assert.equal(
    [b.stale, b.lastSeenAt, b.environments.map((e: any) => [e.name, e.lastSeenAt])],
    [
      true,
      seen.toISOString(),
      [
        ["development", seen.toISOString()],
        ["production", null],
      ],
    ],
  );
  if (c) assert.equal([c.archived, c.archivedAt], [true, archivedAt.toISOString()]);
  await db.updateTable("features").set({ archived_at: null }).where("name", "=", "st-c").execute();
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
