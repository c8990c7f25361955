import type { Database } from "@vexil/db";
import { featureSearchQuerySchema, searchFeatures } from "@vexil/services";
import { featureSearchResultStatements, featureSearchStatement } from "@vexil/services/testing";
import { CompiledQuery, sql, type Updateable } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, clientToken, frontendToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const adminUser = await userWithRole(srv, "admin");

type Params = Record<string, string | string[]>;

function search(params: Params, headers = admin) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  return srv.call("GET", `/api/admin/search/features?${query}`, { headers });
}

/** The names of a search's page, in order; the search must succeed. */
async function names(params: Params): Promise<string[]> {
  const res = await search(params);
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json.features.map((f: { name: string }) => f.name);
}

/** A project with development and production enabled. */
async function project(id: string): Promise<string> {
  assert.is((await srv.call("POST", "/api/admin/projects", { body: { id, name: id }, headers: admin })).status, 201);
  for (const environment of ["development", "production"]) {
    const res = await srv.call("POST", `/api/admin/projects/${id}/environments`, { body: { environment }, headers: admin });
    assert.ok(res.status < 300, JSON.stringify(res.json));
  }
  return id;
}

async function feature(projectId: string, name: string, body: Record<string, unknown> = {}, headers = admin): Promise<string> {
  const res = await srv.call("POST", `/api/admin/projects/${projectId}/features`, { body: { name, ...body }, headers });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return name;
}

async function tag(featureName: string, type: string, value: string): Promise<void> {
  await db
    .insertInto("tag_types")
    .values({ name: type, description: null, icon: null })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto("tags")
    .values({ type, value })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db.insertInto("feature_tags").values({ feature_name: featureName, tag_type: type, tag_value: value }).execute();
}

/** Sets a flag's columns as the lifecycle capabilities would (archive, stale, last seen). */
const set = (featureName: string, values: Updateable<Database["features"]>) =>
  db.updateTable("features").set(values).where("name", "=", featureName).execute();

/** Moves a flag's creation time, which no API changes. */
const createdAt = (featureName: string, at: string) =>
  sql`update features set created_at = ${at}::timestamptz where name = ${featureName}`.execute(db);

test("a result has Unleash's fields: environments with their state, tags, segments, dependency, creator, lifecycle", async () => {
  const p = await project("sr-full");
  const full = await feature(
    p,
    "sr-full-flag",
    { description: "Everything shown", type: "experiment", impressionData: true },
    adminUser.headers,
  );
  const child = await feature(p, "sr-full-child");
  const env = (e: string, path = "") => `/api/admin/projects/${p}/features/${full}/environments/${e}${path}`;
  const segment = await srv.call("POST", "/api/admin/segments", { body: { name: "sr-full-segment" }, headers: admin });
  assert.is(segment.status, 201);
  assert.is(
    (await srv.call("POST", env("development", "/strategies"), { body: { name: "default", disabled: true }, headers: admin })).status,
    200,
  );
  const rollout = { name: "flexibleRollout", parameters: { rollout: "50" }, segments: [segment.json.id] };
  assert.is((await srv.call("POST", env("production", "/strategies"), { body: rollout, headers: admin })).status, 200);
  assert.is((await srv.call("POST", env("production", "/on"), { headers: admin })).status, 200);
  const variants = [{ name: "blue", weightType: "variable", stickiness: "default" }];
  assert.is((await srv.call("PUT", env("development", "/variants"), { body: variants, headers: admin })).status, 200);
  const dependency = { body: { feature: full }, headers: admin };
  assert.is((await srv.call("POST", `/api/admin/projects/${p}/features/${child}/dependencies`, dependency)).status, 200);
  await srv.call("PUT", `/api/admin/projects/${p}/environments/production/change-requests/config`, {
    body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    headers: admin,
  });
  const proposed = await srv.call("POST", `/api/admin/projects/${p}/environments/production/change-requests`, {
    body: { feature: full, action: "updateEnabled", payload: { enabled: false } },
    headers: adminUser.headers,
  });
  assert.ok(proposed.status < 300, JSON.stringify(proposed.json));
  await tag(full, "simple", "beta");
  await tag(full, "simple", "alpha");
  await set(full, { last_seen_at: new Date("2026-01-02T03:04:05.000Z") });
  await db
    .updateTable("feature_environments")
    .set({ last_seen_at: new Date("2026-01-02T03:04:05.000Z") })
    .where("feature_name", "=", full)
    .where("environment_name", "=", "production")
    .execute();
  await db
    .insertInto("client_metrics")
    .values({ feature_name: full, environment: "production", app_name: "web", hour: sql`date_trunc('hour', now())`, yes: 3, no: 1 })
    .execute();
  // Creating a flag records its `initial` stage; these rows replace it with the history the test needs.
  await db.deleteFrom("feature_lifecycles").where("feature_name", "=", full).execute();
  await db
    .insertInto("feature_lifecycles")
    .values([
      { feature_name: full, stage: "initial", entered_at: new Date("2026-01-01T00:00:00.000Z") },
      { feature_name: full, stage: "pre-live", entered_at: new Date("2026-01-02T00:00:00.000Z") },
    ])
    .execute();
  const stored = await db.selectFrom("features").select("created_at").where("name", "=", full).executeTakeFirstOrThrow();

  const res = await search({ project: `IS:${p}` });
  assert.is(res.status, 200);
  assert.is(res.json.total, 2);
  const [first, second] = res.json.features;
  const off = { hasStrategies: false, hasEnabledStrategies: false, yes: 0, no: 0, changeRequestIds: [], lastSeenAt: null, variantCount: 0 };
  assert.equal(first, {
    name: full,
    description: "Everything shown",
    type: "experiment",
    project: p,
    stale: false,
    favorite: false,
    impressionData: true,
    createdAt: stored.created_at.toISOString(),
    archivedAt: null,
    lastSeenAt: "2026-01-02T03:04:05.000Z",
    createdBy: { id: adminUser.id, name: adminUser.username, imageUrl: first.createdBy.imageUrl },
    dependencyType: "parent",
    environments: [
      {
        ...off,
        name: "development",
        type: "development",
        enabled: false,
        sortOrder: first.environments[0].sortOrder,
        variantCount: 1,
        hasStrategies: true,
      },
      {
        ...off,
        name: "production",
        type: "production",
        enabled: true,
        sortOrder: first.environments[1].sortOrder,
        lastSeenAt: "2026-01-02T03:04:05.000Z",
        hasStrategies: true,
        hasEnabledStrategies: true,
        yes: 3,
        no: 1,
        changeRequestIds: [proposed.json.id],
      },
    ],
    segments: ["sr-full-segment"],
    tags: [
      { type: "simple", value: "alpha", color: "#FFFFFF" },
      { type: "simple", value: "beta", color: "#FFFFFF" },
    ],
    lifecycle: { stage: "pre-live", enteredStageAt: "2026-01-02T00:00:00.000Z" },
  });
  assert.match(first.createdBy.imageUrl, /^https:\/\/gravatar\.com\/avatar\/[0-9a-f]+/);
  assert.ok(first.environments[0].sortOrder < first.environments[1].sortOrder);
  // Created with an admin token: no user, the token's name.
  assert.equal([second.name, second.dependencyType, second.createdBy.id, second.segments, second.tags], [child, "child", 0, [], []]);
  // Created through the API: it entered `initial` then.
  assert.is(second.lifecycle?.stage, "initial");

  // Over REST the same JSON as the procedure on /trpc, to the order of the fields, the first time and again.
  const input = { project: `IS:${p}`, sortBy: "name" };
  const trpcPage = async () => {
    const res = await srv.call("GET", `/trpc/featureSearch.search?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: admin });
    assert.is(res.status, 200, JSON.stringify(res.json));
    return JSON.stringify(res.json.result.data);
  };
  const restPage = async () => {
    // A length too long would leave the client waiting for bytes that never come.
    const res = await srv.call("GET", `/api/admin/search/features?${new URLSearchParams(input)}`, { headers: admin, timeoutMs: 10_000 });
    assert.is(res.status, 200, JSON.stringify(res.json));
    const page = JSON.stringify(res.json);
    // The answer's length is its bytes': its JSON is JSON.stringify's, as this is.
    assert.is(Number(res.headers["content-length"]), Buffer.byteLength(page));
    return page;
  };
  const once = await restPage();
  assert.is(once, await trpcPage());
  // And the same 400 for a query it cannot read.
  const bad = await search({ tag: "NOT_AN_OPERATOR:simple:x", limit: ["1", "2"] });
  const badTrpc = await srv.call(
    "GET",
    `/trpc/featureSearch.search?input=${encodeURIComponent(JSON.stringify({ tag: "NOT_AN_OPERATOR:simple:x", limit: ["1", "2"] }))}`,
    { headers: admin },
  );
  assert.is(bad.status, 400);
  const { id: _restId, ...restError } = bad.json;
  const { name, message, details } = badTrpc.json.error.data;
  assert.equal(restError, { name, message, details });
  assert.is(await restPage(), once);
  // A flag's own columns changed: the next page shows them, text of more bytes than characters too.
  await set(full, { description: "Changed under it: für Überall ✓ 🚩", stale: true, last_seen_at: new Date("2026-02-03T04:05:06Z") });
  const changed = JSON.parse(await restPage()).features.find((f: { name: string }) => f.name === full);
  assert.equal(
    [changed.description, changed.stale, changed.lastSeenAt],
    ["Changed under it: für Überall ✓ 🚩", true, "2026-02-03T04:05:06.000Z"],
  );
  assert.is(await restPage(), await trpcPage());
});

test("query: a substring of the name, the description or a tag's value, any case; commas separate terms; % and _ are literal", async () => {
  const p = await project("sr-query");
  await feature(p, "sr-query-checkout-flow", { description: "Pays the ORDER" });
  await feature(p, "sr-query-dark_mode");
  await feature(p, "sr-query-darkxmode");
  await feature(p, "sr-query-percent", { description: "100% done" });
  await tag(await feature(p, "sr-query-tagged"), "team", "Checkout-Team");
  const only = (query: string) => names({ project: `IS:${p}`, query, sortBy: "name" });
  assert.equal(await only("CHECKOUT"), ["sr-query-checkout-flow", "sr-query-tagged"]);
  assert.equal(await only("pays the"), ["sr-query-checkout-flow"]);
  assert.equal(await only("k_m"), ["sr-query-dark_mode"]);
  assert.equal(await only("100%"), ["sr-query-percent"]);
  assert.equal(await only("0% d"), ["sr-query-percent"]);
  assert.equal(await only(" pays , dark_ ,, "), ["sr-query-checkout-flow", "sr-query-dark_mode"]);
  assert.equal(await only("team"), ["sr-query-tagged"]);
  assert.equal(await only("no such thing"), []);
  // The tag's type is not searched: "team" matched the value "Checkout-Team" above, not the type.
  assert.equal(await only("simple"), []);
});

test("project and type: IS, IS_NOT, IS_ANY_OF, IS_NONE_OF", async () => {
  const a = await project("sr-pa");
  const b = await project("sr-pb");
  await feature(a, "sr-pt-1", { type: "release" });
  await feature(a, "sr-pt-2", { type: "experiment" });
  await feature(b, "sr-pt-3", { type: "kill-switch" });
  const q = (params: Params) => names({ query: "sr-pt-", sortBy: "name", ...params });
  assert.equal(await q({ project: `IS:${a}` }), ["sr-pt-1", "sr-pt-2"]);
  assert.equal(await q({ project: `IS_NOT:${a}` }), ["sr-pt-3"]);
  assert.equal(await q({ project: `IS_ANY_OF:${a}, ${b}` }), ["sr-pt-1", "sr-pt-2", "sr-pt-3"]);
  assert.equal(await q({ project: `IS_NONE_OF:${a},${b}` }), []);
  assert.equal(await q({ project: "IS:nope" }), []);
  assert.equal(await q({ type: "IS:experiment" }), ["sr-pt-2"]);
  assert.equal(await q({ type: "IS_NONE_OF:release,experiment" }), ["sr-pt-3"]);
  assert.equal(await q({ type: "IS_ANY_OF:release,kill-switch", project: `IS:${b}` }), ["sr-pt-3"]);
});

test("state: stale, active (not stale) and potentially stale (not stale, past its lifetime), with each operator", async () => {
  const p = await project("sr-state");
  const fresh = await feature(p, "sr-state-fresh");
  const old = await feature(p, "sr-state-old");
  const dead = await feature(p, "sr-state-dead");
  const deadOld = await feature(p, "sr-state-dead-old");
  await set(old, { potentially_stale: true });
  await set(dead, { stale: true });
  await set(deadOld, { stale: true, potentially_stale: true });
  const q = (state: string) => names({ project: `IS:${p}`, state, sortBy: "name" });
  assert.equal(await q("IS:stale"), [dead, deadOld]);
  assert.equal(await q("IS:active"), [fresh, old]);
  assert.equal(await q("IS:potentially-stale"), [old]);
  assert.equal(await q("IS_ANY_OF:stale,potentially-stale"), [dead, deadOld, old]);
  assert.equal(await q("IS_ANY_OF:active,stale,potentially-stale"), [dead, deadOld, fresh, old]);
  assert.equal(await q("IS_NOT:active"), [dead, deadOld]);
  assert.equal(await q("IS_NOT:potentially-stale"), [dead, deadOld, fresh]);
  assert.equal(await q("IS_NONE_OF:stale,potentially-stale"), [fresh]);
  const res = await search({ project: `IS:${p}`, state: "IS:stale" });
  assert.equal(
    res.json.features.map((f: { stale: boolean }) => f.stale),
    [true, true],
  );
});

test("tag: INCLUDE, INCLUDE_ANY_OF, INCLUDE_ALL_OF, DO_NOT_INCLUDE, EXCLUDE_IF_ANY_OF, EXCLUDE_ALL; every tag is shown", async () => {
  const p = await project("sr-tag");
  const xy = await feature(p, "sr-tag-xy");
  const y = await feature(p, "sr-tag-y");
  const none = await feature(p, "sr-tag-none");
  const teamX = await feature(p, "sr-tag-team-x");
  await tag(xy, "simple", "x");
  await tag(xy, "simple", "y");
  await tag(y, "simple", "y");
  await tag(teamX, "team", "x");
  await tag(teamX, "team", "a:b");
  const q = (value: string) => names({ project: `IS:${p}`, tag: value, sortBy: "name" });
  assert.equal(await q("INCLUDE:simple:x"), [xy]);
  assert.equal(await q("INCLUDE_ANY_OF:simple:x, team:x"), [teamX, xy]);
  assert.equal(await q("INCLUDE_ALL_OF:simple:x,simple:y"), [xy]);
  assert.equal(await q("INCLUDE_ALL_OF:simple:x,team:x"), []);
  assert.equal(await q("DO_NOT_INCLUDE:simple:y"), [none, teamX]);
  assert.equal(await q("EXCLUDE_IF_ANY_OF:simple:x,simple:y"), [none, teamX]);
  assert.equal(await q("EXCLUDE_ALL:simple:x,simple:y"), [none, teamX, y]);
  // A value may hold a colon: the type ends at the first.
  assert.equal(await q("INCLUDE:team:a:b"), [teamX]);
  const res = await search({ project: `IS:${p}`, tag: "INCLUDE:simple:x" });
  assert.equal(res.json.features[0].tags, [
    { type: "simple", value: "x", color: "#FFFFFF" },
    { type: "simple", value: "y", color: "#FFFFFF" },
  ]);

  // The flags' tag keys follow every write of their tags, by trigger (docs/search.md#tag-keys): a
  // tag removed over the API, a row changed by hand, a tag type deleted with its tags.
  const removed = await srv.call("DELETE", `/api/admin/features/${xy}/tags/simple/x`, { headers: admin });
  assert.is(removed.status, 200, JSON.stringify(removed.json));
  assert.equal(await q("INCLUDE:simple:x"), []);
  assert.equal(await q("INCLUDE_ALL_OF:simple:y"), [xy, y]);
  await tag(y, "simple", "w");
  await sql`update feature_tags set tag_value = 'x' where feature_name = ${y} and tag_value = 'w'`.execute(db);
  assert.equal(await q("INCLUDE:simple:x"), [y]);
  assert.equal(await q("INCLUDE_ALL_OF:simple:x,simple:y"), [y]);
  await sql`delete from tag_types where name = 'team'`.execute(db);
  assert.equal(await q("INCLUDE_ANY_OF:team:x,team:a:b"), []);
  assert.equal(await q("EXCLUDE_IF_ANY_OF:simple:x"), [none, teamX, xy]);
  const stored = await sql<{
    name: string;
    tag_keys: string[];
  }>`select name, tag_keys from features where project_id = ${p} order by name`.execute(db);
  assert.equal(stored.rows, [
    { name: none, tag_keys: [] },
    { name: teamX, tag_keys: [] },
    { name: xy, tag_keys: ["simple:y"] },
    { name: y, tag_keys: ["simple:x", "simple:y"] },
  ]);
});

test("segment: flags whose strategies use the segments, with each operator", async () => {
  const p = await project("sr-seg");
  const ids: Record<string, number> = {};
  for (const name of ["sr-seg-one", "sr-seg-two"]) {
    const res = await srv.call("POST", "/api/admin/segments", { body: { name }, headers: admin });
    ids[name] = res.json.id;
  }
  const both = await feature(p, "sr-seg-both");
  const one = await feature(p, "sr-seg-first");
  const none = await feature(p, "sr-seg-none");
  const strategy = (f: string, segments: number[]) =>
    srv.call("POST", `/api/admin/projects/${p}/features/${f}/environments/development/strategies`, {
      body: { name: "default", segments },
      headers: admin,
    });
  await strategy(both, [ids["sr-seg-one"] as number]);
  await strategy(both, [ids["sr-seg-two"] as number]);
  await strategy(one, [ids["sr-seg-one"] as number]);
  const q = (segment: string) => names({ project: `IS:${p}`, segment, sortBy: "name" });
  assert.equal(await q("INCLUDE:sr-seg-one"), [both, one]);
  assert.equal(await q("INCLUDE_ALL_OF:sr-seg-one,sr-seg-two"), [both]);
  assert.equal(await q("DO_NOT_INCLUDE:sr-seg-two"), [one, none]);
  assert.equal(await q("EXCLUDE_ALL:sr-seg-one,sr-seg-two"), [one, none]);
  assert.equal((await search({ project: `IS:${p}`, query: both })).json.features[0].segments, ["sr-seg-one", "sr-seg-two"]);
});

test("status: on or off in an environment of the flag's project, once or repeated (any of them); every environment is shown", async () => {
  const p = await project("sr-status");
  const onProd = await feature(p, "sr-status-prod");
  const onDev = await feature(p, "sr-status-dev");
  const off = await feature(p, "sr-status-off");
  await srv.call("POST", `/api/admin/projects/${p}/features/${onProd}/environments/production/on`, { headers: admin });
  await srv.call("POST", `/api/admin/projects/${p}/features/${onDev}/environments/development/on`, { headers: admin });
  await srv.call("POST", "/api/admin/environments", { body: { name: "sr-staging", type: "test" }, headers: admin });
  const q = (status: string | string[]) => names({ project: `IS:${p}`, status, sortBy: "name" });
  assert.equal(await q("production:enabled"), [onProd]);
  assert.equal(await q("production:disabled"), [onDev, off]);
  assert.equal(await q(["production:enabled", "development:enabled"]), [onDev, onProd]);
  // Not enabled in the project: neither on nor off there.
  assert.equal(await q("sr-staging:disabled"), []);
  const res = await search({ project: `IS:${p}`, status: "production:enabled" });
  assert.equal(
    res.json.features[0].environments.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled]),
    [
      ["development", false],
      ["production", true],
    ],
  );
});

test("createdAt and lastSeenAt: IS_BEFORE and IS_ON_OR_AFTER a day (UTC); never seen matches neither", async () => {
  const p = await project("sr-dates");
  const early = await feature(p, "sr-dates-early");
  const mid = await feature(p, "sr-dates-mid");
  const late = await feature(p, "sr-dates-late");
  await createdAt(early, "2024-01-01T12:00:00Z");
  await createdAt(mid, "2025-06-15T00:00:00Z");
  await createdAt(late, "2025-06-14T23:59:59Z");
  await set(early, { last_seen_at: new Date("2026-03-01T00:00:00Z") });
  await set(mid, { last_seen_at: new Date("2026-02-28T23:59:59Z") });
  const q = (params: Params) => names({ project: `IS:${p}`, sortBy: "name", ...params });
  assert.equal(await q({ createdAt: "IS_BEFORE:2025-06-15" }), [early, late]);
  assert.equal(await q({ createdAt: "IS_ON_OR_AFTER:2025-06-15" }), [mid]);
  assert.equal(await q({ lastSeenAt: "IS_ON_OR_AFTER:2026-03-01" }), [early]);
  assert.equal(await q({ lastSeenAt: "IS_BEFORE:2026-03-01" }), [mid]);
  assert.equal(await q({ createdAt: "IS_BEFORE:2025-06-15", lastSeenAt: "IS_BEFORE:2030-01-01" }), [early]);
});

test("archived: IS:true lists only archived flags, otherwise only the others; lifecycle narrows either as in Unleash", async () => {
  const p = await project("sr-arch");
  const live = await feature(p, "sr-arch-live");
  const building = await feature(p, "sr-arch-building");
  const gone = await feature(p, "sr-arch-gone");
  await set(gone, { archived_at: new Date("2026-02-01T00:00:00Z") });
  // Creating a flag records its `initial` stage; these rows replace it with the history the test needs.
  await db.deleteFrom("feature_lifecycles").where("feature_name", "in", [live, building, gone]).execute();
  await db
    .insertInto("feature_lifecycles")
    .values([
      { feature_name: live, stage: "initial", entered_at: new Date("2026-01-01T00:00:00Z") },
      { feature_name: live, stage: "live", entered_at: new Date("2026-01-02T00:00:00Z") },
      { feature_name: building, stage: "pre-live", entered_at: new Date("2026-01-01T00:00:00Z") },
      { feature_name: gone, stage: "live", entered_at: new Date("2026-01-01T00:00:00Z") },
      { feature_name: gone, stage: "archived", entered_at: new Date("2026-02-01T00:00:00Z") },
    ])
    .execute();
  const q = (params: Params) => names({ project: `IS:${p}`, sortBy: "name", ...params });
  assert.equal(await q({}), [building, live]);
  assert.equal(await q({ archived: "IS:false" }), [building, live]);
  assert.equal(await q({ archived: "IS:true" }), [gone]);
  const archived = (await search({ project: `IS:${p}`, archived: "IS:true" })).json.features[0];
  assert.is(archived.archivedAt, "2026-02-01T00:00:00.000Z");
  assert.equal(await q({ lifecycle: "IS:live" }), [live]);
  assert.equal(await q({ lifecycle: "IS_NOT:live" }), [building]);
  assert.equal(await q({ lifecycle: "IS_ANY_OF:live,archived" }), [gone, live]);
  assert.equal(await q({ lifecycle: "IS:archived" }), [gone]);
  assert.equal(await q({ lifecycle: "IS_NOT:archived" }), [building, live]);
  assert.equal(await q({ lifecycle: "IS:pre-live", archived: "IS:true" }), []);
});

test("an archived flag is shown in its archived stage, entered when it was archived", async () => {
  const p = await project("sr-arch-stage");
  const gone = await feature(p, "sr-arch-stage-gone");
  assert.is((await srv.call("DELETE", `/api/admin/projects/${p}/features/${gone}`, { headers: admin })).status, 202);
  const [found] = (await search({ project: `IS:${p}`, archived: "IS:true" })).json.features;
  assert.equal(found.lifecycle, { stage: "archived", enteredStageAt: found.archivedAt });
  // Revived, it starts over in `initial`.
  assert.is((await srv.call("POST", `/api/admin/archive/revive/${gone}`, { headers: admin })).status, 200);
  assert.is((await search({ project: `IS:${p}` })).json.features[0].lifecycle.stage, "initial");
});

test("createdBy: the user who created the flag, by id; favorite: nobody has favourites", async () => {
  const p = await project("sr-by");
  const editor = await userWithRole(srv, "editor");
  const mine = await feature(p, "sr-by-editor", {}, editor.headers);
  const token = await feature(p, "sr-by-token");
  const q = (params: Params) => names({ project: `IS:${p}`, sortBy: "name", ...params });
  assert.equal(await q({ createdBy: `IS:${editor.id}` }), [mine]);
  assert.equal(await q({ createdBy: `IS_NOT:${editor.id}` }), [token]);
  assert.equal(await q({ createdBy: `IS_ANY_OF:${editor.id},${adminUser.id}` }), [mine]);
  assert.equal(await q({ favorite: "IS:true" }), []);
  assert.equal(await q({ favorite: "IS:false" }), [mine, token]);
  assert.equal(await q({ favorite: "IS_ANY_OF:true,false", favoritesFirst: "true" }), [mine, token]);
  const res = await search({ project: `IS:${p}`, query: mine });
  assert.equal([res.json.features[0].createdBy.id, res.json.features[0].createdBy.name], [editor.id, editor.username]);
});

test("a tag filter whose tags more than 1,000 flags carry answers its page and total as one whose tags few flags carry", async () => {
  const p = await project("sr-many");
  // 1,100 flags carry "many" (every third also "few"); 10 more carry "few" only; 5 carry neither.
  await sql`insert into features (name, project_id, created_at, stale)
            select 'sr-many-' || lpad(g::text, 4, '0'), ${p}, timestamptz '2024-01-01' + g * interval '1 hour', g % 7 = 0
            from generate_series(1, 1115) g`.execute(db);
  await tag("sr-many-0001", "simple", "many");
  await tag("sr-many-1101", "simple", "few");
  await sql`insert into feature_tags (feature_name, tag_type, tag_value)
            select 'sr-many-' || lpad(g::text, 4, '0'), 'simple', 'many' from generate_series(2, 1100) g`.execute(db);
  await sql`insert into feature_tags (feature_name, tag_type, tag_value)
            select 'sr-many-' || lpad(g::text, 4, '0'), 'simple', 'few' from generate_series(3, 1100, 3) g
            union all select 'sr-many-' || lpad(g::text, 4, '0'), 'simple', 'few' from generate_series(1102, 1110) g`.execute(db);
  const expected = async (filter: string, state?: string) => {
    const tags = filter === "many" ? ["many"] : filter === "few" ? ["few"] : ["many", "few"];
    const rows = await sql<{ name: string }>`select name from features f where project_id = ${p} and archived_at is null
        and (${state ?? null}::text is null or not stale)
        and exists (select 1 from feature_tags t where t.feature_name = f.name and t.tag_type = 'simple' and t.tag_value = any(${tags}::text[]))
        order by name`.execute(db);
    return rows.rows.map((r) => r.name);
  };
  for (const [tagFilter, which] of [
    ["INCLUDE_ANY_OF:simple:many,simple:few", "both"],
    ["INCLUDE:simple:many", "many"],
    ["INCLUDE:simple:few", "few"],
  ] as const) {
    for (const state of [undefined, "IS:active"]) {
      const all = await expected(which, state);
      for (const offset of [0, 40, all.length - 7, all.length, all.length + 100]) {
        const res = await search({
          project: `IS:${p}`,
          tag: tagFilter,
          sortBy: "name",
          offset: String(offset),
          ...(state ? { state } : {}),
        });
        assert.is(res.status, 200, JSON.stringify(res.json));
        const label = `${tagFilter} ${state ?? ""} offset ${offset}`;
        assert.is(res.json.total, all.length, label);
        assert.equal(
          res.json.features.map((f: { name: string }) => f.name),
          all.slice(offset, offset + 50),
          label,
        );
      }
    }
  }
  // Many carriers, none matching the other filters: an empty first page, and a total of 0.
  const none = await search({ project: `IS:${p}`, tag: "INCLUDE:simple:many", type: "IS:kill-switch" });
  assert.equal([none.status, none.json.total, none.json.features], [200, 0, []]);
  // Many carriers beside listed terms, beside archived flags, and sorted by an environment.
  const check = async (params: Params, rows: { name: string }[]) => {
    const res = await search({ project: `IS:${p}`, tag: "INCLUDE:simple:many", ...params });
    assert.is(res.status, 200, JSON.stringify(res.json));
    assert.is(res.json.total, rows.length, JSON.stringify(params));
    assert.equal(
      res.json.features.map((f: { name: string }) => f.name),
      rows.slice(0, 50).map((r) => r.name),
      JSON.stringify(params),
    );
  };
  const many = `exists (select 1 from feature_tags t where t.feature_name = f.name and t.tag_value = 'many')`;
  await check(
    { query: "sr-many-00", sortBy: "name" },
    (await sql<{ name: string }>`select name from features f where name like 'sr-many-00%' and ${sql.raw(many)} order by name`.execute(db))
      .rows,
  );
  await sql`update features set archived_at = now() where project_id = ${p} and name like '%3'`.execute(db);
  await check(
    { archived: "IS:true", sortBy: "name" },
    (
      await sql<{
        name: string;
      }>`select name from features f where project_id = ${p} and archived_at is not null and ${sql.raw(many)} order by name`.execute(db)
    ).rows,
  );
  await sql`insert into feature_environments (feature_name, environment_name, enabled)
            select name, 'production', true from features where project_id = ${p} and name like '%7'`.execute(db);
  await check(
    { sortBy: "environment:production", sortOrder: "desc", offset: "0" },
    (
      await sql<{
        name: string;
      }>`select f.name from features f left join feature_environments fe on fe.feature_name = f.name and fe.environment_name = 'production'
          where project_id = ${p} and archived_at is null and ${sql.raw(many)}
          order by coalesce(fe.enabled, false) desc, f.created_at, f.name`.execute(db)
    ).rows,
  );
});

test("sortBy and sortOrder: each field, then the oldest first and by name; environment:<name> puts flags on there first or last", async () => {
  const p = await project("sr-sort");
  const made = ["sr-sort-c", "sr-sort-a", "sr-sort-b", "sr-sort-d"];
  const types = ["release", "experiment", "release", "operational"];
  for (const [i, name] of made.entries()) await feature(p, name, { type: types[i] });
  // a and b share a creation time: name decides between them.
  const times = ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"];
  for (const [i, name] of made.entries()) await createdAt(name, times[i] as string);
  await set("sr-sort-d", { stale: true, last_seen_at: new Date("2026-02-01T00:00:00Z") });
  await set("sr-sort-b", { last_seen_at: new Date("2026-02-02T00:00:00Z") });
  await srv.call("POST", `/api/admin/projects/${p}/features/sr-sort-b/environments/production/on`, { headers: admin });
  const q = (sortBy?: string, sortOrder?: string) =>
    names({ project: `IS:${p}`, ...(sortBy ? { sortBy } : {}), ...(sortOrder ? { sortOrder } : {}) });
  const [a, b, c, d] = ["sr-sort-a", "sr-sort-b", "sr-sort-c", "sr-sort-d"];
  assert.equal(await q(), [c, a, b, d], "default: createdAt asc");
  assert.equal(await q("createdAt", "desc"), [d, a, b, c], "newest first, equal times by name");
  assert.equal(await q("name"), [a, b, c, d]);
  assert.equal(await q("name", "desc"), [d, c, b, a]);
  assert.equal(await q("type"), [a, d, c, b]);
  assert.equal(await q("type", "desc"), [c, b, d, a]);
  assert.equal(await q("stale"), [c, a, b, d]);
  assert.equal(await q("stale", "desc"), [d, c, a, b]);
  assert.equal(await q("lastSeenAt"), [d, b, c, a], "never seen last");
  assert.equal(await q("lastSeenAt", "desc"), [b, d, c, a], "never seen last");
  assert.equal(await q("project"), [c, a, b, d]);
  assert.equal(await q("environment:production", "desc"), [b, c, a, d]);
  assert.equal(await q("environment:production", "asc"), [c, a, d, b]);
});

test("offset and limit page through the flags; total counts them all; 50 by default, at most 100", async () => {
  const p = await project("sr-page");
  await sql`insert into features (name, project_id) select 'sr-page-' || lpad(g::text, 3, '0'), ${p} from generate_series(1, 105) g`.execute(
    db,
  );
  const page = async (params: Params) => {
    const res = await search({ project: `IS:${p}`, sortBy: "name", ...params });
    assert.is(res.status, 200, JSON.stringify(res.json));
    return { names: res.json.features.map((f: { name: string }) => f.name), total: res.json.total };
  };
  const first = await page({});
  assert.equal([first.names.length, first.names[0], first.names[49], first.total], [50, "sr-page-001", "sr-page-050", 105]);
  const third = await page({ limit: "10", offset: "100" });
  assert.equal(third, { names: ["sr-page-101", "sr-page-102", "sr-page-103", "sr-page-104", "sr-page-105"], total: 105 });
  assert.equal((await page({ limit: "100" })).names.length, 100);
  assert.equal(await page({ offset: "200" }), { names: [], total: 105 }, "past the end: no flags, the total still");
  assert.equal(await page({ limit: "2", offset: "3", query: "sr-page-00" }), { names: ["sr-page-004", "sr-page-005"], total: 9 });
  // Past the end of a query's matches, and with nothing matching, the total is still right.
  assert.equal(await page({ offset: "9", query: "sr-page-00" }), { names: [], total: 9 }, "past the end of listed matches");
  assert.equal(await page({ offset: "8", query: "sr-page-00" }), { names: ["sr-page-009"], total: 9 });
  assert.equal(await page({ query: "sr-page-no-such" }), { names: [], total: 0 });
  assert.equal(await page({ offset: "5", query: "sr-page-no-such" }), { names: [], total: 0 });
});

test("bad input is a 400 naming the parameter: unknown operators, sort fields, values, dates, limits; a repeated parameter", async () => {
  const before = await dbSnapshot(db);
  const cases: [Params, string][] = [
    [{ project: "BAR:default" }, "project"],
    [{ project: "default" }, "project"],
    [{ project: "IS:" }, "project"],
    [{ type: "IS_ALL_OF:release" }, "type"],
    [{ state: "IS:rotten" }, "state"],
    [{ lifecycle: "IS:dead" }, "lifecycle"],
    [{ createdBy: "IS:abc" }, "createdBy"],
    [{ tag: "FOO:simple:x" }, "tag"],
    [{ tag: "INCLUDE:novalue" }, "tag"],
    [{ segment: "IS:pro" }, "segment"],
    [{ status: "production:maybe" }, "status"],
    [{ status: ["production:enabled", "production"] }, "status"],
    [{ createdAt: "IS_AFTER:2026-01-01" }, "createdAt"],
    [{ createdAt: "IS_BEFORE:2026-13-45" }, "createdAt"],
    [{ lastSeenAt: "IS_BEFORE:2026-02-30" }, "lastSeenAt"],
    [{ archived: "yes" }, "archived"],
    [{ favorite: "IS:maybe" }, "favorite"],
    [{ favoritesFirst: "yes" }, "favoritesFirst"],
    [{ sortBy: "bogus" }, "sortBy"],
    [{ sortBy: "environment:" }, "sortBy"],
    [{ sortOrder: "sideways" }, "sortOrder"],
    [{ limit: "0" }, "limit"],
    [{ limit: "101" }, "limit"],
    [{ limit: "abc" }, "limit"],
    [{ offset: "-1" }, "offset"],
    [{ query: ["a", "b"] }, "query"],
    [{ query: "x".repeat(1001) }, "query"],
  ];
  for (const [params, field] of cases) {
    const res = await search(params);
    assertError(res, 400, "ValidationError");
    assert.equal(
      res.json.details.map((d: { path: string }) => d.path),
      [field],
      JSON.stringify(params),
    );
  }
  assert.match((await search({ sortBy: "bogus" })).json.message, /createdAt, name, type, stale, project, lastSeenAt or environment:<name>/);
  assert.match((await search({ project: "BAR:x" })).json.message, /IS, IS_NOT, IS_ANY_OF, IS_NONE_OF/);
  // Parameters Unleash does not know are ignored, as it ignores them.
  assert.is((await search({ unknown: "1" })).status, 200);
  assert.equal(await dbSnapshot(db), before);
});

test("who may search: any user and an admin token; SDK tokens are refused as on the admin API, nobody is a 401", async () => {
  const viewer = await userWithRole(srv, "viewer");
  assert.is((await search({}, viewer.headers)).status, 200);
  assert.is((await search({}, admin)).status, 200);
  assertError(await search({}, await clientToken(srv)), 403, "NoAccessError");
  assertError(await search({}, await frontendToken(srv)), 403, "NoAccessError");
  assertError(await search({}, {}), 401, "AuthenticationRequired");
  const trpc = await srv.call("GET", `/trpc/featureSearch.search?input=${encodeURIComponent(JSON.stringify({ project: "IS:default" }))}`, {
    headers: admin,
  });
  assert.is(trpc.status, 200, JSON.stringify(trpc.json));
});

/** EXECUTE takes no bind parameters: the values as literals. */
const literal = (v: unknown): string =>
  Array.isArray(v)
    ? `array[${v.map(literal).join(", ")}]::text[]`
    : typeof v === "number" || typeof v === "boolean"
      ? String(v)
      : v instanceof Date
        ? `'${v.toISOString()}'`
        : `'${String(v).replaceAll("'", "''")}'`;

/** The generic plan of a statement (made without its parameters' values), as a prepared statement may settle on it. */
async function genericPlan(compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  return db.connection().execute(async (c) => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(c);
    try {
      await c.executeQuery(CompiledQuery.raw(`prepare generic_plan as ${compiled.sql}`));
      const res = await c.executeQuery<{ "QUERY PLAN": string }>(
        CompiledQuery.raw(`explain execute generic_plan(${compiled.parameters.map(literal).join(", ")})`),
      );
      return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      await c.executeQuery(CompiledQuery.raw("deallocate generic_plan"));
      await sql`reset plan_cache_mode`.execute(c);
    }
  });
}

/** The plan of a statement, as EXPLAIN prints it. */
async function plan(compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const res = await db.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
  return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

test("at 100,000 flags the common searches, and what their pages show, are read from indexes, never a sequential scan", async () => {
  const projects = 50;
  await sql`insert into projects (id, name) select 'bulk-' || g, 'bulk-' || g from generate_series(1, ${projects}) g`.execute(db);
  await sql`insert into project_environments (project_id, environment_name)
            select 'bulk-' || g, e from generate_series(1, ${projects}) g cross join (values ('development'), ('production')) v(e)`.execute(
    db,
  );
  // Spread as a real instance's: a tenth archived, a twentieth stale and as many potentially stale,
  // creation over five years, half seen by SDKs, a fifth tagged.
  await sql`insert into features (name, project_id, description, type, created_at, archived_at, stale, potentially_stale, last_seen_at)
            select 'bulk-flag-' || lpad(g::text, 6, '0'), 'bulk-' || (g % ${projects} + 1),
                   case when g % 3 = 0 then 'Rolls out the ' || md5(g::text) end,
                   (array['release', 'experiment', 'operational', 'kill-switch', 'permission'])[g % 5 + 1],
                   timestamptz '2021-01-01' + (g * interval '26 minutes'),
                   case when g % 10 = 0 then timestamptz '2026-01-01' + (g * interval '1 second') end,
                   g % 20 = 1, g % 20 = 2,
                   case when g % 2 = 0 then timestamptz '2026-01-01' + (g * interval '1 minute') end
            from generate_series(1, 100000) g`.execute(db);
  await sql`insert into tags (type, value) select 'simple', 'bulk-tag-' || g from generate_series(1, 100) g`.execute(db);
  await sql`insert into feature_tags (feature_name, tag_type, tag_value)
            select 'bulk-flag-' || lpad(g::text, 6, '0'), 'simple', 'bulk-tag-' || (g % 100 + 1) from generate_series(1, 100000, 5) g`.execute(
    db,
  );
  await sql`insert into feature_environments (feature_name, environment_name, enabled)
            select 'bulk-flag-' || lpad(g::text, 6, '0'), 'production', g % 3 = 0 from generate_series(1, 100000) g`.execute(db);
  // Change requests shaped as the bench's: many changes on few flags (20,000 requests, each with two
  // changes to one of 101 flags, bulk-flag-050001 to bulk-flag-050101, and titled after it), a
  // quarter of them open (Scheduled). More flags than the default statistics keep as common values.
  await sql`with requests as (
              insert into change_requests (project_id, environment_name, title, state, created_by_user_id, min_approvals, scheduled_at, schedule_status)
              select 'bulk-' || ((50001 + g % 101) % ${projects} + 1), case when g % 3 = 0 then 'production' else 'development' end,
                     'bulk-flag-' || lpad((50001 + g % 101)::text, 6, '0'), (array['Applied', 'Cancelled', 'Rejected', 'Scheduled'])[g % 4 + 1],
                     ${adminUser.id}, 1, case when g % 4 = 3 then timestamptz '2100-01-01' end, case when g % 4 = 3 then 'pending' end
              from generate_series(1, 20000) g
              returning id, title)
            insert into change_request_changes (change_request_id, feature_name, action, payload, created_by_user_id)
            select r.id, r.title, case k when 1 then 'updateEnabled' else 'patchVariant' end, '{"enabled": true}'::jsonb, ${adminUser.id}
            from requests r cross join generate_series(1, 2) k`.execute(db);
  // As autovacuum leaves a table after a bulk insert: analysed, its visibility map set.
  for (const table of [
    "features",
    "feature_tags",
    "feature_environments",
    "project_environments",
    "events",
    "change_requests",
    "change_request_changes",
  ])
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);

  const searches: Params[] = [
    {},
    { sortOrder: "desc" },
    { sortBy: "name" },
    { query: "bulk-flag-04217" },
    { query: "md5-no-such-text" },
    { query: "bulk-tag-17" },
    { project: "IS:bulk-7" },
    { project: "IS_ANY_OF:bulk-7,bulk-8" },
    { type: "IS:experiment" },
    { tag: "INCLUDE:simple:bulk-tag-3" },
    { project: "IS:bulk-4", state: "IS:active", tag: "INCLUDE_ANY_OF:simple:bulk-tag-3,simple:bulk-tag-4", sortBy: "name" },
    { tag: "INCLUDE_ALL_OF:simple:bulk-tag-3,simple:bulk-tag-4" },
    { state: "IS:stale" },
    { state: "IS:potentially-stale" },
    { archived: "IS:true" },
    { createdAt: "IS_ON_OR_AFTER:2025-11-01" },
    { lastSeenAt: "IS_ON_OR_AFTER:2026-03-01" },
    { sortBy: "lastSeenAt" },
    { project: "IS:bulk-7", query: "rolls", sortBy: "name", offset: "50" },
    // Listed terms and a tag: the terms' few flags by primary key, their tags checked on the way.
    { query: "bulk-flag-04217", tag: "INCLUDE_ANY_OF:simple:bulk-tag-3,simple:bulk-tag-4" },
  ];
  for (const params of searches) {
    const text = await plan(featureSearchStatement(db, featureSearchQuerySchema.parse(params)).compile());
    assert.not.match(text, /Seq Scan on features/, `${JSON.stringify(params)}:\n${text}`);
  }
  // What a page shows besides the flags' columns, read over the page's names: for pages whose flags
  // hold no changes, as the bench's searches find (before the statistics of
  // docs/search.md#open-change-requests, a sequential scan of both change request tables).
  const large = /Seq Scan on (features|feature_environments|feature_tags|change_requests|change_request_changes)\b/;
  for (const params of [{}, { sortOrder: "desc" }]) {
    const rows = await featureSearchStatement(db, featureSearchQuerySchema.parse(params)).execute();
    const pageNames = rows.map((r) => r.name as string);
    for (const [what, statement] of Object.entries(featureSearchResultStatements(db, pageNames))) {
      const text = await plan(statement.compile());
      assert.not.match(text, large, `${what} of the page of ${JSON.stringify(params)}:\n${text}`);
    }
  }
  // The extras and the environments run as prepared statements, and a connection settles on their
  // generic plan, made without the page's names (docs/search.md#one-query): that plan
  // reads indexes too.
  const firstRows = await featureSearchStatement(db, featureSearchQuerySchema.parse({}));
  const firstNames = (await firstRows.execute()).map((r) => r.name as string);
  const prepared = featureSearchResultStatements(db, firstNames);
  for (const what of ["extras", "environments"] as const) {
    const text = await genericPlan(prepared[what].compile());
    assert.match(text, /ANY \(\$1\)/, `${what} is planned without its names:\n${text}`);
    assert.not.match(text, large, `${what}, generic plan:\n${text}`);
  }
  // A page of the flags that hold them shows each flag's open change requests in each environment, and only those.
  const withChanges = await searchFeatures(db, featureSearchQuerySchema.parse({ query: "bulk-flag-0500" }));
  const shown = withChanges.features
    .flatMap((f) => f.environments.map((e) => ({ name: f.name, environment: e.name, ids: e.changeRequestIds })))
    .filter((e) => e.ids.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.environment.localeCompare(b.environment));
  const open = await sql<{ name: string; environment: string; ids: number[] }>`
    select c.feature_name as name, cr.environment_name as environment, array_agg(distinct cr.id order by cr.id) as ids
    from change_request_changes c
    join change_requests cr on cr.id = c.change_request_id
    join features f on f.name = c.feature_name and f.project_id = cr.project_id
    where cr.state not in ('Applied', 'Cancelled', 'Rejected') and c.feature_name = any(${withChanges.features.map((f) => f.name)}::text[])
    group by c.feature_name, cr.environment_name`.execute(db);
  const expectedOpen = open.rows.sort((a, b) => a.name.localeCompare(b.name) || a.environment.localeCompare(b.environment));
  assert.ok(expectedOpen.length > 50, `open change requests on the page: ${expectedOpen.length}`);
  assert.equal(shown, expectedOpen);

  // And they answer: through the service, since after minutes without a request the HTTP pool's
  // kept-alive connection may be closed under it by the server while the embedded database is busy.
  const found = await searchFeatures(db, featureSearchQuerySchema.parse({ project: "IS:bulk-7", type: "IS:experiment" }));
  const expected = await sql<{
    n: string;
  }>`select count(*) as n from features where project_id = 'bulk-7' and type = 'experiment' and archived_at is null`.execute(db);
  assert.is(found.total, Number(expected.rows[0]?.n));
  assert.is(found.features.length, 50);
  assert.ok(found.features.every((f) => f.project === "bulk-7" && f.type === "experiment"));
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
