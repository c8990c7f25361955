import type { ErrorName } from "@vexil/api";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer, UUID_V4 } from "./support/test-server.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const viewer = await userWithRole(srv, "viewer");

let n = 0;
async function freshFeature(project = "default"): Promise<string> {
  const name = `s-${++n}`;
  const res = await srv.call("POST", `/api/admin/projects/${project}/features`, { body: { name }, headers: admin });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return name;
}
const envPath = (feature: string, env = "development", project = "default") =>
  `/api/admin/projects/${project}/features/${feature}/environments/${env}`;
const post = (path: string, body: unknown, headers = admin) => srv.call("POST", path, { body, headers });

/** A request that must be refused with `status`/`name` and leave every table and the event log as they were. */
async function refusedAndUnchanged(call: () => ReturnType<typeof post>, status: number, name: ErrorName): Promise<void> {
  const before = await dbSnapshot(db);
  const stored = await db.selectFrom("feature_strategies").selectAll().orderBy("id").execute();
  assertError(await call(), status, name);
  assert.equal(await dbSnapshot(db), before);
  assert.equal(await db.selectFrom("feature_strategies").selectAll().orderBy("id").execute(), stored);
}

test("on and off switch one environment, append their events, and show in the feature's GET", async () => {
  const f = await freshFeature();
  assert.equal((await post(`${envPath(f)}/on`, undefined)).json, { enabled: true });
  let got = (await srv.call("GET", `/api/admin/projects/default/features/${f}`, { headers: admin })).json;
  assert.equal(
    got.environments.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled]),
    [
      ["development", true],
      ["production", false],
    ],
  );
  await post(`${envPath(f)}/off`, undefined);
  got = (await srv.call("GET", `/api/admin/projects/default/features/${f}`, { headers: admin })).json;
  assert.is(got.environments[0].enabled, false);
  const events = await db.selectFrom("events").select("type").where("feature_name", "=", f).orderBy("id").execute();
  assert.equal(
    events.map((e) => e.type),
    ["feature-created", "feature-environment-enabled", "feature-environment-disabled"],
  );
  assertError(await post(`${envPath(f)}/on`, undefined, viewer.headers), 403, "NoAccessError");
  assertError(await post(`${envPath("ghost")}/on`, undefined), 404, "NotFoundError");
});

test("strategies: add answers it with a UUID and defaults, list/get read it, the feature's GET shows it per environment", async () => {
  const f = await freshFeature();
  const res = await post(`${envPath(f)}/strategies`, {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: f },
    constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.match(res.json.id, UUID_V4);
  assert.equal(
    { ...res.json, id: "x" },
    {
      id: "x",
      name: "flexibleRollout",
      title: null,
      disabled: false,
      sortOrder: 0,
      constraints: [{ contextName: "appName", operator: "IN", values: ["web"], inverted: false, caseInsensitive: false }],
      parameters: { rollout: "50", stickiness: "default", groupId: f },
      variants: [],
      segments: [],
    },
  );
  const second = (await post(`${envPath(f)}/strategies`, { name: "default" })).json;
  assert.is(second.sortOrder, 1);
  const list = (await srv.call("GET", `${envPath(f)}/strategies`, { headers: admin })).json;
  assert.equal(
    list.map((s: { id: string }) => s.id),
    [res.json.id, second.id],
  );
  assert.equal((await srv.call("GET", `${envPath(f)}/strategies/${second.id}`, { headers: admin })).json, second);
  const feature = (await srv.call("GET", `/api/admin/projects/default/features/${f}`, { headers: admin })).json;
  assert.equal(feature.environments[0].strategies, list);
  assert.equal(feature.environments[1].strategies, []);
  const event = await db
    .selectFrom("events")
    .select(["type", "data"])
    .where("feature_name", "=", f)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  assert.equal(event, { type: "feature-strategy-add", data: second });
});

test("strategies: PUT replaces and keeps the place, DELETE removes, both record events", async () => {
  const f = await freshFeature();
  const s = (await post(`${envPath(f)}/strategies`, { name: "userWithId", parameters: { userIds: "1,2" } })).json;
  const put = await srv.call("PUT", `${envPath(f)}/strategies/${s.id}`, {
    body: { name: "userWithId", title: "Beta", parameters: { userIds: "3" } },
    headers: admin,
  });
  assert.is(put.status, 200, JSON.stringify(put.json));
  assert.equal([put.json.title, put.json.parameters, put.json.sortOrder], ["Beta", { userIds: "3" }, 0]);
  assert.equal((await srv.call("DELETE", `${envPath(f)}/strategies/${s.id}`, { headers: admin })).status, 200);
  assertError(await srv.call("GET", `${envPath(f)}/strategies/${s.id}`, { headers: admin }), 404, "NotFoundError");
  const types = await db.selectFrom("events").select("type").where("feature_name", "=", f).orderBy("id").execute();
  assert.equal(
    types.map((e) => e.type),
    ["feature-created", "feature-strategy-add", "feature-strategy-update", "feature-strategy-remove"],
  );
});

test("strategy variants are normalised as feature variants are", async () => {
  const f = await freshFeature();
  const res = await post(`${envPath(f)}/strategies`, {
    name: "default",
    variants: [{ name: "b" }, { name: "a", weight: 100, weightType: "fix", payload: { type: "string", value: "x" } }, { name: "c" }],
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(res.json.variants, [
    { name: "a", weight: 100, weightType: "fix", stickiness: "default", payload: { type: "string", value: "x" } },
    { name: "b", weight: 450, weightType: "variable", stickiness: "default" },
    { name: "c", weight: 450, weightType: "variable", stickiness: "default" },
  ]);
});

test("every operator is accepted with a value that fits it", async () => {
  const f = await freshFeature();
  const constraints = [
    { contextName: "a", operator: "IN", values: [] },
    { contextName: "a", operator: "NOT_IN", values: ["x"] },
    { contextName: "a", operator: "STR_CONTAINS", values: ["x"], caseInsensitive: true },
    { contextName: "a", operator: "STR_STARTS_WITH", values: ["x"] },
    { contextName: "a", operator: "STR_ENDS_WITH", values: ["x"], inverted: true },
    ...["NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE"].map((operator) => ({ contextName: "n", operator, value: "12.5" })),
    { contextName: "currentTime", operator: "DATE_AFTER", value: "2022-01-22T13:00:00.000+02:00" },
    { contextName: "currentTime", operator: "DATE_BEFORE", value: "2022-01-29T13:00:00.000Z" },
    ...["SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE"].map((operator) => ({
      contextName: "v",
      operator,
      value: "2.0.0-alpha.1",
    })),
    { contextName: "userId", operator: "REGEX", value: "^(?i)[[:alpha:]]+$" },
    { contextName: "remoteAddress", operator: "IN_CIDR", values: ["127.0.0.1", "10.0.0.0/8", "2001:db8::/32"] },
  ];
  const res = await post(`${envPath(f)}/strategies`, { name: "default", constraints });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.json.constraints.length, constraints.length);
});

test("bad input is a 400 naming the field, and changes nothing", async () => {
  const f = await freshFeature();
  const strategies = `${envPath(f)}/strategies`;
  const bad: [string, unknown][] = [
    ["unknown strategy", { name: "noSuchStrategy" }],
    ["unknown operator", { name: "default", constraints: [{ contextName: "a", operator: "NOT_A_VALID_OPERATOR", value: "x" }] }],
    ["NUM_ with a word", { name: "default", constraints: [{ contextName: "a", operator: "NUM_EQ", value: "twelve" }] }],
    ["DATE_ not ISO", { name: "default", constraints: [{ contextName: "a", operator: "DATE_AFTER", value: "yesterday" }] }],
    ["SEMVER_ with v", { name: "default", constraints: [{ contextName: "a", operator: "SEMVER_EQ", value: "v2.0.0" }] }],
    ["REGEX that does not compile", { name: "default", constraints: [{ contextName: "a", operator: "REGEX", value: "(regex" }] }],
    ["REGEX with a back-reference", { name: "default", constraints: [{ contextName: "a", operator: "REGEX", value: "^(a)\\1$" }] }],
    ["IN_CIDR malformed", { name: "default", constraints: [{ contextName: "a", operator: "IN_CIDR", values: ["127.invalid"] }] }],
    ["IN without values", { name: "default", constraints: [{ contextName: "a", operator: "IN" }] }],
    ["rollout over 100", { name: "flexibleRollout", parameters: { rollout: "101" } }],
    ["parameter not a string", { name: "default", parameters: { rollout: 5 } }],
    ["variants without a variable one", { name: "default", variants: [{ name: "a", weight: 1000, weightType: "fix" }] }],
    ["missing segment", { name: "default", segments: [999999] }],
  ];
  for (const [why, body] of bad) {
    const before = await dbSnapshot(db);
    const res = await post(strategies, body);
    assertError(res, 400, "ValidationError");
    assert.ok(res.json.details?.length > 0, why);
    assert.equal(await dbSnapshot(db), before, why);
  }
  // The body is checked before the path: 400 beats 404.
  assertError(await post(`${envPath("ghost")}/strategies`, { name: "nope" }), 400, "ValidationError");
  assertError(await post(`${envPath("ghost")}/strategies`, { name: "default" }), 404, "NotFoundError");
});

test("custom strategy types: defined once, listed with the built-in ones, then usable", async () => {
  const f = await freshFeature();
  await refusedAndUnchanged(() => post(`${envPath(f)}/strategies`, { name: "byTenant" }), 400, "ValidationError");
  const created = await post("/api/admin/strategies", {
    name: "byTenant",
    description: "Tenants",
    parameters: [{ name: "tenants", type: "list" }],
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  assertError(await post("/api/admin/strategies", { name: "byTenant" }), 409, "NameExistsError");
  assertError(await post("/api/admin/strategies", { name: "default" }), 409, "NameExistsError");
  const list = (await srv.call("GET", "/api/admin/strategies", { headers: admin })).json;
  assert.is(list.version, 1);
  const names = list.strategies.map((s: { name: string }) => s.name);
  for (const name of [
    "default",
    "flexibleRollout",
    "userWithId",
    "remoteAddress",
    "applicationHostname",
    "gradualRolloutUserId",
    "gradualRolloutSessionId",
    "gradualRolloutRandom",
    "byTenant",
  ]) {
    assert.ok(names.includes(name), name);
  }
  assert.is((await post(`${envPath(f)}/strategies`, { name: "byTenant", parameters: { tenants: "a,b" } })).status, 200);
});

test("segments: CRUD, used by strategies, a segment in use is a 409 that changes nothing", async () => {
  const f = await freshFeature();
  const created = await post("/api/admin/segments", {
    name: "beta-users",
    constraints: [{ contextName: "userId", operator: "IN", values: ["1"] }],
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id;
  assertError(await post("/api/admin/segments", { name: "beta-users" }), 409, "NameExistsError");
  assertError(
    await post("/api/admin/segments", { name: "bad", constraints: [{ contextName: "n", operator: "NUM_GT", value: "x" }] }),
    400,
    "ValidationError",
  );
  const put = await srv.call("PUT", `/api/admin/segments/${id}`, { body: { name: "beta-users", description: "Beta" }, headers: admin });
  assert.equal([put.status, put.json.description, put.json.constraints], [200, "Beta", []]);
  const s = (await post(`${envPath(f)}/strategies`, { name: "default", segments: [id] })).json;
  assert.equal(s.segments, [id]);
  await refusedAndUnchanged(() => srv.call("DELETE", `/api/admin/segments/${id}`, { headers: admin }), 409, "ConflictError");
  const refused = await srv.call("DELETE", `/api/admin/segments/${id}`, { headers: admin });
  assert.match(refused.json.message, `default of "${f}" in development (project default)`, "the refusal names where it is used");
  // Where it is used, as Unleash answers it: stored, and proposed in pending change requests.
  const using = await srv.call("GET", `/api/admin/segments/${id}/strategies`, { headers: viewer.headers });
  assert.is(using.status, 200);
  assert.equal(using.json, {
    strategies: [{ id: s.id, featureName: f, projectId: "default", environment: "development", strategyName: "default" }],
    changeRequestStrategies: [],
  });
  await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
    headers: admin,
    body: { changeRequestsEnabled: true, requiredApprovals: 1 },
  });
  const proposer = await userWithRole(srv, "editor");
  const proposal = await post(
    "/api/admin/projects/default/environments/production/change-requests",
    { feature: f, action: "addStrategy", payload: { name: "flexibleRollout", segments: [id] } },
    proposer.headers,
  );
  assert.is(proposal.status, 200, JSON.stringify(proposal.json));
  const proposed = (await srv.call("GET", `/api/admin/segments/${id}/strategies`, { headers: admin })).json.changeRequestStrategies;
  assert.equal(proposed, [
    {
      featureName: f,
      projectId: "default",
      environment: "production",
      strategyName: "flexibleRollout",
      changeRequest: { id: proposal.json.id, title: proposal.json.title ?? null },
    },
  ]);
  const cancelled = await srv.call("PUT", `/api/admin/projects/default/change-requests/${proposal.json.id}/state`, {
    headers: proposer.headers,
    body: { state: "Cancelled" },
  });
  assert.is(cancelled.status, 200, JSON.stringify(cancelled.json));
  assert.equal((await srv.call("GET", `/api/admin/segments/${id}/strategies`, { headers: admin })).json.changeRequestStrategies, []);
  await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
    headers: admin,
    body: { changeRequestsEnabled: false, requiredApprovals: 1 },
  });
  assertError(await srv.call("GET", "/api/admin/segments/999999/strategies", { headers: admin }), 404, "NotFoundError");
  // A project segment cannot be used in another project.
  await post("/api/admin/projects", { id: "seg-other", name: "Other" });
  const other = (await post("/api/admin/segments", { name: "other-only", project: "seg-other" })).json;
  await refusedAndUnchanged(() => post(`${envPath(f)}/strategies`, { name: "default", segments: [other.id] }), 400, "ValidationError");
  await srv.call("DELETE", `${envPath(f)}/strategies/${s.id}`, { headers: admin });
  assert.is((await srv.call("DELETE", `/api/admin/segments/${id}`, { headers: admin })).status, 200);
  assertError(await srv.call("GET", `/api/admin/segments/${id}`, { headers: admin }), 404, "NotFoundError");
  const types = await db.selectFrom("events").select("type").where("type", "like", "segment-%").orderBy("id").execute();
  assert.equal(types.map((e) => e.type).slice(0, 3), ["segment-created", "segment-updated", "segment-created"]);
});

test("dependencies: one level deep, same project, no cycles; refusals change nothing", async () => {
  const parent = await freshFeature();
  const child = await freshFeature();
  const grandchild = await freshFeature();
  const deps = (feature: string) => `/api/admin/projects/default/features/${feature}/dependencies`;
  const added = await post(deps(child), { feature: parent, variants: ["blue"] });
  assert.equal([added.status, added.json], [200, { feature: parent, enabled: true, variants: ["blue"] }]);
  await refusedAndUnchanged(() => post(deps(parent), { feature: child }), 400, "ValidationError");
  await refusedAndUnchanged(() => post(deps(grandchild), { feature: child }), 400, "ValidationError");
  await refusedAndUnchanged(() => post(deps(child), { feature: child }), 400, "ValidationError");
  await post("/api/admin/projects", { id: "dep-other", name: "Other" });
  const elsewhere = await freshFeature("dep-other");
  await refusedAndUnchanged(() => post(deps(child), { feature: elsewhere }), 400, "ValidationError");
  const feature = (await srv.call("GET", `/api/admin/projects/default/features/${child}`, { headers: admin })).json;
  assert.equal(feature.dependencies, [{ feature: parent, enabled: true, variants: ["blue"] }]);
  assert.is((await srv.call("DELETE", `${deps(child)}/${parent}`, { headers: admin })).status, 200);
  assertError(await srv.call("DELETE", `${deps(child)}/${parent}`, { headers: admin }), 404, "NotFoundError");
});

test("impressionData: false by default, set on create and by PUT", async () => {
  const res = await post("/api/admin/projects/default/features", { name: "impressive", impressionData: true });
  assert.is(res.json.impressionData, true);
  const f = await freshFeature();
  const put = await srv.call("PUT", `/api/admin/projects/default/features/${f}`, { body: { impressionData: true }, headers: admin });
  assert.equal([put.status, put.json.impressionData, put.json.type], [200, true, "release"]);
  assertError(
    await srv.call("PUT", `/api/admin/projects/default/features/${f}`, { body: { impressionData: "yes" }, headers: admin }),
    400,
    "ValidationError",
  );
});

test("where change requests are on, direct strategy and on/off writes are refused as variants are", async () => {
  const f = await freshFeature();
  const editor = await userWithRole(srv, "editor");
  await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
    body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    headers: admin,
  });
  await refusedAndUnchanged(
    () => post(`${envPath(f, "production")}/strategies`, { name: "default" }, editor.headers),
    403,
    "NoAccessError",
  );
  await refusedAndUnchanged(() => post(`${envPath(f, "production")}/on`, undefined, editor.headers), 403, "NoAccessError");
  assert.is((await post(`${envPath(f, "development")}/on`, undefined, editor.headers)).status, 200);
});

test.after(() => srv.close());
test.run();
