import type { ErrorName } from "@vexil/api";
import { once } from "node:events";
import { InMemStorageProvider, Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { sdkChangedUntil } from "./support/sdk-changed-until.ts";
import { nextEvent, openSse, type SseEvent } from "./support/sse-stream.ts";
import { startTestServer, UUID_V4 } from "./support/test-server.ts";

// The rest of a flag's daily edits (docs/flag-model.md#daily-edits): one environment's view, clone,
// bulk on/off, a strategy's JSON patch, strategy order and the name check, over REST.
const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const viewer = await userWithRole(srv, "viewer");
const FEATURES = "/api/admin/projects/default/features";

const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
const envPath = (feature: string, env = "development") => `${FEATURES}/${feature}/environments/${env}`;
const bulk = (env: string, onOff: "on" | "off") => `/api/admin/projects/default/bulk_features/environments/${env}/${onOff}`;

let n = 0;
async function newFeature(prefix: string, body: Record<string, unknown> = {}): Promise<string> {
  const name = `${prefix}-${++n}`;
  const res = await call("POST", FEATURES, { name, ...body });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return name;
}
async function addStrategy(feature: string, body: unknown, env = "development"): Promise<any> {
  const res = await call("POST", `${envPath(feature, env)}/strategies`, body);
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json;
}
const eventsOf = async (feature: string) =>
  db.selectFrom("events").select(["type", "environment", "data", "pre_data"]).where("feature_name", "=", feature).orderBy("id").execute();
const archive = (feature: string) => db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", feature).execute();

/** A request that must be refused with `status`/`name` and leave every table, the event log and the stored flags as they were. */
async function refusedAndUnchanged(request: () => ReturnType<typeof call>, status: number, name: ErrorName): Promise<any> {
  const stored = async () => ({
    counts: await dbSnapshot(db),
    environments: await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute(),
    strategies: await db.selectFrom("feature_strategies").selectAll().orderBy("id").execute(),
  });
  const before = await stored();
  const res = await request();
  assertError(res, status, name);
  assert.equal(await stored(), before);
  return res.json;
}

const ROLLOUT = { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "default" } };

test("GET one environment: on or off, lastSeenAt, variants and strategies by sortOrder, each naming its feature", async () => {
  const f = await newFeature("env");
  const segment = (await call("POST", "/api/admin/segments", { name: `seg-${f}` })).json;
  const first = await addStrategy(f, { ...ROLLOUT, parameters: { ...ROLLOUT.parameters, groupId: f }, segments: [segment.id] });
  const second = await addStrategy(f, { name: "default", disabled: true });
  await call("PUT", `${envPath(f)}/variants`, [{ name: "blue", weightType: "variable", stickiness: "default" }]);
  assert.is((await call("POST", `${envPath(f)}/on`)).status, 200);

  const res = await call("GET", envPath(f), undefined, viewer.headers);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(res.json, {
    name: f,
    environment: "development",
    type: "development",
    sortOrder: res.json.sortOrder,
    enabled: true,
    lastSeenAt: null,
    variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default", overrides: [] }],
    strategies: [
      { ...first, featureName: f },
      { ...second, featureName: f },
    ],
  });
  assert.type(res.json.sortOrder, "number");
  const production = (await call("GET", envPath(f, "production"))).json;
  assert.equal([production.enabled, production.variants, production.strategies], [false, [], []]);

  await call("POST", "/api/admin/environments", { name: "env-only", type: "test" });
  assert.match(assertNotFound(await call("GET", envPath(f, "env-only"))), "not enabled in the project");
  assert.match(assertNotFound(await call("GET", envPath(f, "nowhere"))), 'environment "nowhere" does not exist');
  assert.match(assertNotFound(await call("GET", envPath("ghost"))), '"ghost" does not exist');
  assert.match(assertNotFound(await call("GET", `/api/admin/projects/nope/features/${f}/environments/development`)), '"nope"');
});

function assertNotFound(res: Awaited<ReturnType<typeof call>>): string {
  assertError(res, 404, "NotFoundError");
  return res.json.message;
}

test("clone: what Unleash copies (strategies with their constraints, segments and variants, variants, dependencies), off everywhere, no tags", async () => {
  const parent = await newFeature("parent");
  const source = await newFeature("source", { description: "the source", type: "experiment", impressionData: true });
  const segment = (await call("POST", "/api/admin/segments", { name: `seg-${source}` })).json;
  await addStrategy(source, {
    ...ROLLOUT,
    title: "half",
    parameters: { ...ROLLOUT.parameters, groupId: source },
    constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
    segments: [segment.id],
    variants: [{ name: "sv", weightType: "variable", stickiness: "default" }],
  });
  await addStrategy(source, { name: "default", disabled: true });
  await addStrategy(source, { name: "userWithId", parameters: { userIds: "alice" } }, "production");
  await call("PUT", `${envPath(source, "production")}/variants`, [{ name: "red", weightType: "variable", stickiness: "default" }]);
  await call("POST", `${FEATURES}/${source}/dependencies`, { feature: parent, enabled: false });
  await call("POST", `${envPath(source)}/on`);
  await db
    .insertInto("tag_types")
    .values({ name: "clone-test" })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db.insertInto("tags").values({ type: "clone-test", value: "x" }).execute();
  await db.insertInto("feature_tags").values({ feature_name: source, tag_type: "clone-test", tag_value: "x" }).execute();

  const name = `${source}-copy`;
  const res = await call("POST", `${FEATURES}/${source}/clone`, { name });
  assert.is(res.status, 201, JSON.stringify(res.json));
  assert.is(res.headers.location, `${FEATURES}/${name}`);
  assert.equal(
    { ...res.json, createdAt: "t" },
    {
      name,
      project: "default",
      description: "the source",
      type: "experiment",
      impressionData: true,
      createdAt: "t",
      stale: false,
      archived: false,
      archivedAt: null,
      lastSeenAt: null,
    },
  );

  const original = (await call("GET", `${FEATURES}/${source}`)).json;
  const clone = (await call("GET", `${FEATURES}/${name}`)).json;
  assert.equal(
    clone.environments.map((e: any) => [e.name, e.enabled]),
    [
      ["development", false],
      ["production", false],
    ],
  );
  const withoutIds = (e: any) => e.strategies.map(({ id: _, ...s }: any) => s);
  for (const [i, environment] of clone.environments.entries()) {
    for (const s of environment.strategies) assert.match(s.id, UUID_V4);
    assert.not.ok(
      environment.strategies.some((s: any) => original.environments[i].strategies.some((o: any) => o.id === s.id)),
      "new ids",
    );
    assert.equal(environment.variants, original.environments[i].variants);
    const expected = withoutIds(original.environments[i]).map((s: any) =>
      s.parameters.groupId ? { ...s, parameters: { ...s.parameters, groupId: name } } : s,
    );
    assert.equal(withoutIds(environment), expected);
  }
  assert.equal(clone.environments[0].strategies[0].segments, [segment.id]);
  assert.equal(clone.dependencies, [{ feature: parent, enabled: false, variants: [] }]);
  assert.equal(await db.selectFrom("feature_tags").select("tag_value").where("feature_name", "=", name).execute(), []);
  assert.equal(
    (await eventsOf(name)).map((e) => [e.type, e.environment]),
    [
      ["feature-created", null],
      ["feature-strategy-add", "development"],
      ["feature-strategy-add", "development"],
      ["feature-environment-variants-updated", "production"],
      ["feature-strategy-add", "production"],
      ["feature-dependency-added", null],
    ],
  );

  // SDKs are served the clone, off, with its strategies (the disabled one left out, as for every flag).
  const served = (await call("GET", `/api/client/features/${name}`)).json;
  assert.equal([served.enabled, served.strategies.map((s: any) => [s.name, s.parameters.groupId])], [false, [["flexibleRollout", name]]]);

  // replaceGroupId: false keeps the source's group id, so that both roll out to the same users.
  const kept = `${source}-same-group`;
  assert.is((await call("POST", `${FEATURES}/${source}/clone`, { name: kept, replaceGroupId: false })).status, 201);
  assert.is((await call("GET", `${envPath(kept)}/strategies`)).json[0].parameters.groupId, source);
});

test("clone refuses a taken name (an archived flag's too), a bad name, a missing or archived source, and a viewer; nothing is stored", async () => {
  const source = await newFeature("src");
  await addStrategy(source, { name: "default" });
  const taken = await newFeature("taken");
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/${source}/clone`, { name: taken }), 409, "NameExistsError");
  const archived = await newFeature("gone");
  await archive(archived);
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/${source}/clone`, { name: archived }), 409, "NameExistsError");
  for (const body of [{ name: "has space" }, { name: "" }, {}, { name: "ok-name", extra: 1 }, { name: "ok-name", replaceGroupId: "yes" }]) {
    await refusedAndUnchanged(() => call("POST", `${FEATURES}/${source}/clone`, body), 400, "ValidationError");
  }
  // A bad body is a 400 even where the source does not exist (docs/errors.md#check-order).
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/ghost/clone`, { name: "has space" }), 400, "ValidationError");
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/ghost/clone`, { name: "from-ghost" }), 404, "NotFoundError");
  await refusedAndUnchanged(
    () => call("POST", `/api/admin/projects/nope/features/${source}/clone`, { name: "elsewhere" }),
    404,
    "NotFoundError",
  );
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/${archived}/clone`, { name: "from-archived" }), 404, "NotFoundError");
  await refusedAndUnchanged(() => call("POST", `${FEATURES}/${source}/clone`, { name: "by-viewer" }, viewer.headers), 403, "NoAccessError");
});

test("bulk on/off: all listed features in one write, an event per feature that changed, SDKs told once", async () => {
  const [a, b, c] = [await newFeature("bulk"), await newFeature("bulk"), await newFeature("bulk")];
  const token = (await call("POST", "/api/admin/api-tokens", { tokenName: "bulk-sdk", type: "client", environment: "development" })).json
    .secret as string;
  const stream = await openSse(`${srv.url}/api/client/streaming`, { authorization: token });
  try {
    assert.is((await nextEvent(stream)).event, "unleash-connected");
    assert.is((await call("POST", `${envPath(a)}/on`)).status, 200);
    const updatedNames = (event: SseEvent) =>
      JSON.parse(event.data as string)
        .events.map((e: any) => `${e.feature?.name}:${e.feature?.enabled}`)
        .sort();
    assert.equal(updatedNames(await nextEvent(stream)), [`${a}:true`]);

    const res = await call("POST", bulk("development", "on"), { features: [a, b, c, b] });
    assert.is(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json, {});
    // b and c in one update: one notification for the one transaction.
    assert.equal(updatedNames(await nextEvent(stream)), [`${b}:true`, `${c}:true`]);
    const enabled = await db
      .selectFrom("feature_environments")
      .select(["feature_name", "enabled"])
      .where("feature_name", "in", [a, b, c])
      .where("environment_name", "=", "development")
      .orderBy("feature_name")
      .execute();
    assert.equal(
      enabled.map((e) => e.enabled),
      [true, true, true],
    );
    // a was on already: no second event for it; b, listed twice, gets one.
    for (const [feature, types] of [
      [a, ["feature-created", "feature-environment-enabled"]],
      [b, ["feature-created", "feature-environment-enabled"]],
      [c, ["feature-created", "feature-environment-enabled"]],
    ] as const) {
      assert.equal(
        (await eventsOf(feature)).map((e) => e.type),
        types,
        feature,
      );
    }
    // Nothing left over from the bulk write: the next update is the next change.
    assert.is((await call("POST", `${envPath(a)}/off`)).status, 200);
    assert.equal(updatedNames(await nextEvent(stream)), [`${a}:false`]);

    assert.is((await call("POST", bulk("development", "off"), { features: [a, b] })).status, 200);
    assert.equal(updatedNames(await nextEvent(stream)), [`${b}:false`]);
    assert.equal((await eventsOf(b)).at(-1)?.type, "feature-environment-disabled");
    assert.is((await call("POST", bulk("development", "off"), { features: [] })).status, 200);
  } finally {
    stream.close();
  }
});

test("bulk on/off: a feature not in the project, an archived one, an unknown environment or a bad body changes nothing", async () => {
  const [a, b] = [await newFeature("bulk-refused"), await newFeature("bulk-refused")];
  const other = "bulk-other";
  await call("POST", "/api/admin/projects", { id: other, name: "Other" });
  await call("POST", `/api/admin/projects/${other}/environments`, { environment: "development" });
  const elsewhere = (await call("POST", `/api/admin/projects/${other}/features`, { name: "bulk-elsewhere" })).json.name;
  const on =
    (body: unknown, env = "development", headers = admin) =>
    () =>
      call("POST", bulk(env, "on"), body, headers);

  assert.match((await refusedAndUnchanged(on({ features: [a, "ghost", b] }), 404, "NotFoundError")).message, '"ghost"');
  assert.match((await refusedAndUnchanged(on({ features: [a, elsewhere] }), 404, "NotFoundError")).message, elsewhere);
  await refusedAndUnchanged(on({ features: [a] }, "nowhere"), 404, "NotFoundError");
  await refusedAndUnchanged(
    () => call("POST", `/api/admin/projects/nope/bulk_features/environments/development/on`, { features: [a] }),
    404,
    "NotFoundError",
  );
  for (const body of [
    {},
    { features: "x" },
    { features: [1] },
    { features: [a], extra: true },
    { features: [a], shouldActivateDisabledStrategies: "true" },
  ]) {
    await refusedAndUnchanged(on(body), 400, "ValidationError");
  }
  await refusedAndUnchanged(on({ features: [a] }, "development", viewer.headers), 403, "NoAccessError");
  await archive(b);
  assert.match((await refusedAndUnchanged(on({ features: [a, b] }), 400, "ValidationError")).message, "archived");
});

test("bulk on with shouldActivateDisabledStrategies enables the disabled strategies, each with its update event", async () => {
  const f = await newFeature("activate");
  const disabled = await addStrategy(f, { name: "default", disabled: true });
  const keepOff = await newFeature("activate");
  const stillDisabled = await addStrategy(keepOff, { name: "default", disabled: true });
  assert.is((await call("POST", bulk("development", "on"), { features: [keepOff] })).status, 200);
  assert.is((await call("GET", `${envPath(keepOff)}/strategies/${stillDisabled.id}`)).json.disabled, true);

  assert.is((await call("POST", bulk("development", "on"), { features: [f], shouldActivateDisabledStrategies: true })).status, 200);
  assert.is((await call("GET", `${envPath(f)}/strategies/${disabled.id}`)).json.disabled, false);
  const events = await eventsOf(f);
  assert.equal(
    events.map((e) => e.type),
    ["feature-created", "feature-strategy-add", "feature-strategy-update", "feature-environment-enabled"],
  );
  const update = events[2] as { pre_data: { disabled: boolean }; data: { disabled: boolean } };
  assert.equal([update.pre_data.disabled, update.data.disabled], [true, false]);
});

test("PATCH a strategy: the patch applied to it as GET shows it, checked as PUT, with PUT's event", async () => {
  const f = await newFeature("patch");
  const strategy = await addStrategy(f, { ...ROLLOUT, title: "half", parameters: { ...ROLLOUT.parameters, groupId: f } });
  const url = `${envPath(f)}/strategies/${strategy.id}`;
  const res = await call("PATCH", url, [
    { op: "test", path: "/title", value: "half" },
    { op: "replace", path: "/parameters/rollout", value: "30" },
    { op: "add", path: "/constraints/-", value: { contextName: "userId", operator: "IN", values: ["a"] } },
    { op: "remove", path: "/title" },
  ]);
  assert.is(res.status, 200, JSON.stringify(res.json));
  const expected = {
    ...strategy,
    title: null,
    parameters: { ...strategy.parameters, rollout: "30" },
    constraints: [{ contextName: "userId", operator: "IN", values: ["a"], inverted: false, caseInsensitive: false }],
  };
  assert.equal(res.json, expected);
  assert.equal((await call("GET", url)).json, expected);
  const event = (await eventsOf(f)).at(-1);
  assert.equal(
    [event?.type, event?.environment, event?.pre_data, event?.data],
    ["feature-strategy-update", "development", strategy, expected],
  );

  const patch =
    (body: unknown, target = url, headers = admin) =>
    () =>
      call("PATCH", target, body, headers);
  const refused = async (body: unknown, status: number, name: ErrorName, target = url) =>
    (await refusedAndUnchanged(patch(body, target), status, name)).message as string;
  assert.match(await refused([{ op: "test", path: "/title", value: "half" }], 400, "ValidationError"), "operation 0");
  assert.match(await refused([{ op: "replace", path: "/nope/x", value: 1 }], 400, "ValidationError"), "does not exist");
  assert.match(await refused([{ op: "replace", path: "/parameters/rollout", value: "abc" }], 400, "ValidationError"), "rollout");
  assert.match(await refused([{ op: "remove", path: "/name" }], 400, "ValidationError"), "name");
  assert.match(await refused([{ op: "replace", path: "/id", value: "other" }], 400, "ValidationError"), "id");
  assert.match(await refused([{ op: "add", path: "/segments/-", value: 999_999 }], 400, "ValidationError"), "999999");
  await refused({}, 400, "ValidationError");
  await refused([{ op: "bad", path: "/title" }], 400, "ValidationError");
  await refused([], 404, "NotFoundError", `${envPath(f)}/strategies/no-such-strategy`);
  // A strategy of another feature is not this one's.
  await refused([], 404, "NotFoundError", `${envPath(await newFeature("patch"))}/strategies/${strategy.id}`);
  await refused([], 404, "NotFoundError", `${envPath(f, "production")}/strategies/${strategy.id}`);
  await refusedAndUnchanged(patch([], url, viewer.headers), 403, "NoAccessError");
  await archive(f);
  assert.match(await refused([{ op: "replace", path: "/parameters/rollout", value: "40" }], 400, "ValidationError"), "archived");
});

test("set-sort-order: the order SDKs evaluate strategies in, which decides the variant a user gets", async () => {
  const f = await newFeature("order");
  const forAlice = await addStrategy(f, {
    name: "userWithId",
    parameters: { userIds: "alice" },
    variants: [{ name: "alice-variant", weightType: "variable", stickiness: "default" }],
  });
  const forEveryone = await addStrategy(f, {
    name: "default",
    variants: [{ name: "everyone-variant", weightType: "variable", stickiness: "default" }],
  });
  await call("POST", `${envPath(f)}/on`);
  const token = (await call("POST", "/api/admin/api-tokens", { tokenName: "order-sdk", type: "client", environment: "development" })).json
    .secret as string;
  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: "order-test",
    refreshInterval: 100,
    disableMetrics: true,
    customHeaders: { Authorization: token },
    // No backup file: what it evaluates is what the server sent this run.
    storageProvider: new InMemStorageProvider(),
  });
  unleash.on("error", (error) => assert.unreachable(String(error)));
  try {
    const aliceGets = () => unleash.getVariant(f, { userId: "alice" }).name;
    // Its first `changed` comes before it counts as initialised: wait for that first.
    await once(unleash, "synchronized");
    await sdkChangedUntil(unleash, () => aliceGets() === "alice-variant", "alice's strategy first");

    const res = await call("POST", `${envPath(f)}/strategies/set-sort-order`, [
      { id: forEveryone.id, sortOrder: 0 },
      { id: forAlice.id, sortOrder: 1 },
    ]);
    assert.is(res.status, 200, JSON.stringify(res.json));
    assert.equal(
      res.json.map((s: any) => [s.id, s.sortOrder]),
      [
        [forEveryone.id, 0],
        [forAlice.id, 1],
      ],
    );
    const served = (await call("GET", `/api/client/features/${f}`)).json;
    assert.equal(
      served.strategies.map((s: any) => s.id),
      [forEveryone.id, forAlice.id],
    );
    await sdkChangedUntil(unleash, () => aliceGets() === "everyone-variant", "the strategy for everyone first");
  } finally {
    unleash.destroy();
  }
  const event = (await eventsOf(f)).at(-1);
  assert.equal(
    [event?.type, event?.environment, event?.pre_data, event?.data],
    [
      "strategy-order-changed",
      "development",
      { strategyIds: [forAlice.id, forEveryone.id] },
      { strategyIds: [forEveryone.id, forAlice.id] },
    ],
  );

  // Strategies left out keep their place; an empty list changes nothing but is recorded, as in Unleash.
  assert.is((await call("POST", `${envPath(f)}/strategies/set-sort-order`, [{ id: forAlice.id, sortOrder: -1 }])).status, 200);
  assert.equal(
    (await call("GET", `${envPath(f)}/strategies`)).json.map((s: any) => s.id),
    [forAlice.id, forEveryone.id],
  );

  const sortOrder =
    (body: unknown, feature = f, headers = admin) =>
    () =>
      call("POST", `${envPath(feature)}/strategies/set-sort-order`, body, headers);
  const other = await newFeature("order");
  const ofOther = await addStrategy(other, { name: "default" });
  assert.match((await refusedAndUnchanged(sortOrder([{ id: ofOther.id, sortOrder: 0 }]), 400, "ValidationError")).message, ofOther.id);
  for (const body of [
    {},
    [{ id: forAlice.id }],
    [{ id: forAlice.id, sortOrder: 1.5 }],
    [{ id: forAlice.id, sortOrder: "1" }],
    [{ id: forAlice.id, sortOrder: 1, extra: 1 }],
    [
      { id: forAlice.id, sortOrder: 1 },
      { id: forAlice.id, sortOrder: 2 },
    ],
  ]) {
    await refusedAndUnchanged(sortOrder(body), 400, "ValidationError");
  }
  await refusedAndUnchanged(sortOrder([], "ghost"), 404, "NotFoundError");
  await refusedAndUnchanged(sortOrder([], f, viewer.headers), 403, "NoAccessError");
  await archive(f);
  assert.match((await refusedAndUnchanged(sortOrder([{ id: forAlice.id, sortOrder: 3 }]), 400, "ValidationError")).message, "archived");
});

test("validate: 200 for a free URL-safe name, 409 for a taken one (an archived flag's too), 400 for a bad one", async () => {
  const validate = (body: unknown, headers = admin) => call("POST", "/api/admin/features/validate", body, headers);
  const free = await validate({ name: "free-name" }, viewer.headers);
  assert.is(free.status, 200, JSON.stringify(free.json));
  assert.equal(free.json, {});
  assert.is((await validate({ name: "free-name", projectId: "default" })).status, 200);
  assert.is((await validate({ name: "free-name", projectId: null })).status, 200);
  const taken = await newFeature("taken");
  const live = await validate({ name: taken });
  assertError(live, 409, "NameExistsError");
  assert.is(live.json.message, "A flag with that name already exists.");
  await archive(taken);
  const archived = await validate({ name: taken });
  assertError(archived, 409, "NameExistsError");
  assert.is(archived.json.message, "An archived flag with that name already exists.");
  for (const body of [
    {},
    { name: "" },
    { name: "has space" },
    { name: ".." },
    { name: "x".repeat(101) },
    { name: 1 },
    { name: "a", extra: 1 },
  ]) {
    assertError(await validate(body), 400, "ValidationError");
  }
  assertError(await srv.call("POST", "/api/admin/features/validate", { body: { name: "x" } }), 401, "AuthenticationRequired");
});

test("change requests: reorderStrategy and patchStrategy, proposed, approved and applied, go through the direct writes' steps", async () => {
  await call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  try {
    const [author, approver] = [await userWithRole(srv, "editor"), await userWithRole(srv, "editor")];
    const f = await newFeature("cr");
    const first = await addStrategy(f, { name: "default" }, "production");
    const second = await addStrategy(f, { name: "userWithId", parameters: { userIds: "a" } }, "production");
    const propose = async (action: string, payload: unknown) => {
      const res = await call(
        "POST",
        "/api/admin/projects/default/environments/production/change-requests",
        { feature: f, action, payload },
        author.headers,
      );
      assert.is(res.status, 200, JSON.stringify(res.json));
      return res.json.id as number;
    };
    assertError(
      await call(
        "POST",
        "/api/admin/projects/default/environments/production/change-requests",
        { feature: f, action: "reorderStrategy", payload: [{ id: "x" }] },
        author.headers,
      ),
      400,
      "ValidationError",
    );
    await propose("reorderStrategy", [{ id: second.id, sortOrder: -1 }]);
    const id = await propose("patchStrategy", { id: second.id, patch: [{ op: "replace", path: "/parameters/userIds", value: "b" }] });
    for (const [who, state] of [
      [author, "In review"],
      [approver, "Approved"],
      [approver, "Applied"],
    ] as const) {
      const moved = await call("PUT", `/api/admin/projects/default/change-requests/${id}/state`, { state }, who.headers);
      assert.is(moved.status, 200, `${state}: ${JSON.stringify(moved.json)}`);
    }
    const stored = (await call("GET", `${envPath(f, "production")}/strategies`)).json;
    assert.equal(
      stored.map((s: any) => [s.id, s.parameters]),
      [
        [second.id, { userIds: "b" }],
        [first.id, {}],
      ],
    );
    assert.equal(
      (await eventsOf(f)).slice(-2).map((e) => e.type),
      ["strategy-order-changed", "feature-strategy-update"],
    );
  } finally {
    await call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
      changeRequestsEnabled: false,
      requiredApprovals: 1,
    });
  }
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});
test.run();
