import { once } from "node:events";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, clientToken, frontendToken, userWithRole } from "./support/principals.ts";
import { sdkChangedUntil } from "./support/sdk-changed-until.ts";
import { nextEvent, openSse, type SseEvent } from "./support/sse-stream.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer();
const db = srv.db.kysely;
const admin = await adminToken(srv);
const sdk = await clientToken(srv);
const browser = await frontendToken(srv);
const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });

const FEATURES = "/api/admin/projects/default/features";
let count = 0;
/** A flag of "default", on in development with one strategy and one variant. */
async function newFlag(): Promise<string> {
  const name = `archive-http-${++count}`;
  assert.is((await call("POST", FEATURES, { name })).status, 201);
  const env = `${FEATURES}/${name}/environments/development`;
  assert.is((await call("POST", `${env}/strategies`, { name: "default" })).status, 200);
  assert.is((await call("PUT", `${env}/variants`, [{ name: "blue", weightType: "variable", stickiness: "default" }])).status, 200);
  assert.is((await call("POST", `${env}/on`)).status, 200);
  return name;
}
const archivedAt = async (name: string) =>
  (await db.selectFrom("features").select("archived_at").where("name", "=", name).executeTakeFirst())?.archived_at;
const eventTypes = async (name: string) =>
  (await db.selectFrom("events").select("type").where("feature_name", "=", name).orderBy("id").execute()).map((e) => e.type);
const clientNames = async () => {
  const res = await call("GET", "/api/client/features", undefined, sdk);
  assert.is(res.status, 200);
  return (res.json.features as { name: string }[]).map((f) => f.name);
};
const frontendNames = async () => {
  const res = await call("GET", "/api/frontend?userId=1", undefined, browser);
  assert.is(res.status, 200);
  return (res.json.toggles as { name: string }[]).map((t) => t.name);
};

test("DELETE .../features/:name archives: 202, stored, one event, gone from the client and frontend APIs and the project's list", async () => {
  const name = await newFlag();
  assert.ok((await clientNames()).includes(name));
  assert.ok((await frontendNames()).includes(name));

  const res = await call("DELETE", `${FEATURES}/${name}`);
  assert.is(res.status, 202, JSON.stringify(res.json));
  assert.instance(await archivedAt(name), Date);
  assert.equal(
    (await eventTypes(name)).filter((t) => t === "feature-archived"),
    ["feature-archived"],
  );
  assert.not.ok((await clientNames()).includes(name));
  assert.not.ok((await frontendNames()).includes(name));
  assertError(await call("GET", `/api/client/features/${name}`, undefined, sdk), 404, "NotFoundError");
  const list = await call("GET", FEATURES);
  assert.not.ok((list.json.features as { name: string }[]).some((f) => f.name === name));

  // Again: 202, nothing new.
  assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
  assert.is((await eventTypes(name)).filter((t) => t === "feature-archived").length, 1);
  assertError(await call("DELETE", `${FEATURES}/no-such-flag`), 404, "NotFoundError");
  assertError(await call("DELETE", `/api/admin/projects/no-such-project/features/${name}`), 404, "NotFoundError");
});

test("an archived flag refuses every write with a 400, and its name with a 409", async () => {
  const name = await newFlag();
  const [strategy] = (await call("GET", `${FEATURES}/${name}/environments/development/strategies`)).json;
  assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
  const env = `${FEATURES}/${name}/environments/development`;
  const writes: [string, string, unknown?][] = [
    ["POST", `${env}/on`],
    ["POST", `${env}/off`],
    ["PUT", `${env}/variants`, []],
    ["PATCH", `${env}/variants`, [{ op: "remove", path: "/0" }]],
    ["POST", `${env}/strategies`, { name: "default" }],
    ["PUT", `${env}/strategies/${strategy.id}`, { name: "default" }],
    ["DELETE", `${env}/strategies/${strategy.id}`],
    ["PUT", `${FEATURES}/${name}`, { description: "changed" }],
    ["POST", `${FEATURES}/${name}/dependencies`, { feature: await newFlag() }],
  ];
  const before = await eventTypes(name);
  for (const [method, path, body] of writes) {
    const res = await call(method, path, body);
    assertError(res, 400, "ValidationError");
    assert.match(res.json.message, /^Cannot perform this operation on archived features/, `${method} ${path}`);
  }
  assert.equal(await eventTypes(name), before);
  const taken = await call("POST", FEATURES, { name });
  assertError(taken, 409, "NameExistsError");
  assert.match(taken.json.message, /^An archived flag with that name already exists/);
});

test("archive refuses a parent with a live child (409) and validate says so; bulk archive takes both", async () => {
  const [parent, child] = [await newFlag(), await newFlag()];
  assert.is((await call("POST", `${FEATURES}/${child}/dependencies`, { feature: parent })).status, 200);
  const refused = await call("DELETE", `${FEATURES}/${parent}`);
  assertError(refused, 409, "ConflictError");
  assert.match(refused.json.message, /since other features depend on it/);

  const validate = (features: string[]) => call("POST", "/api/admin/projects/default/archive/validate", { features });
  const alone = await validate([parent]);
  assert.is(alone.status, 200);
  assert.equal(alone.json, { parentsWithChildFeatures: [parent], hasDeletedDependencies: false });
  assert.equal((await validate([parent, child])).json, { parentsWithChildFeatures: [], hasDeletedDependencies: false });
  assertError(await call("POST", "/api/admin/projects/default/archive/validate", {}), 400, "ValidationError");

  assertError(await call("POST", "/api/admin/projects/default/archive", { features: [parent] }), 409, "ConflictError");
  assert.is(await archivedAt(parent), null);
  const both = await call("POST", "/api/admin/projects/default/archive", { features: [parent, child, "no-such-flag"] });
  assert.is(both.status, 202, JSON.stringify(both.json));
  assert.instance(await archivedAt(parent), Date);
  assert.instance(await archivedAt(child), Date);
});

test("bulk archive is all or nothing: one refused flag leaves every other one live", async () => {
  const [a, b, parent, child] = [await newFlag(), await newFlag(), await newFlag(), await newFlag()];
  assert.is((await call("POST", `${FEATURES}/${child}/dependencies`, { feature: parent })).status, 200);
  const res = await call("POST", "/api/admin/projects/default/archive", { features: [a, b, parent] });
  assertError(res, 409, "ConflictError");
  for (const name of [a, b, parent]) assert.is(await archivedAt(name), null);
  assert.ok((await clientNames()).includes(a));
  // Another project's flag: a 400 naming it, nothing archived.
  assert.is((await call("POST", "/api/admin/projects", { id: "archive-other", name: "Other" })).status, 201);
  assert.is((await call("POST", "/api/admin/projects/archive-other/features", { name: "archive-elsewhere" })).status, 201);
  const elsewhere = await call("POST", "/api/admin/projects/default/archive", { features: [a, "archive-elsewhere"] });
  assertError(elsewhere, 400, "ValidationError");
  assert.equal(elsewhere.json.details, [{ path: "features.1", message: '"archive-elsewhere" is in the project "archive-other"' }]);
  assert.is(await archivedAt(a), null);
  assertError(await call("POST", "/api/admin/projects/no-such-project/archive", { features: [a] }), 404, "NotFoundError");
});

// Its time is the bench's to measure (docs/README.md): here, that 1,000 flags go in one call, all or none.
test("bulk archive of 1,000 flags over HTTP in one call", async () => {
  const names = Array.from({ length: 1000 }, (_, i) => `archive-http-bulk-${i}`);
  await db
    .insertInto("features")
    .values(names.map((name) => ({ name, project_id: "default" })))
    .execute();
  const res = await call("POST", "/api/admin/projects/default/archive", { features: names });
  assert.is(res.status, 202, JSON.stringify(res.json));
  const left = await db
    .selectFrom("features")
    .select("name")
    .where("name", "like", "archive-http-bulk-%")
    .where("archived_at", "is", null)
    .execute();
  assert.equal(left, []);
  assert.is((await call("POST", "/api/admin/projects/default/delete", { features: names })).status, 200);
});

test("revive: 200, off everywhere with its configuration, served again; delete for good: archived flags only, events kept", async () => {
  const name = await newFlag();
  assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
  assert.is((await call("POST", `/api/admin/archive/revive/${name}`)).status, 200);
  assert.is(await archivedAt(name), null);
  const served = (await call("GET", `/api/client/features/${name}`, undefined, sdk)).json;
  assert.equal([served.enabled, served.strategies.length, served.variants.map((v: { name: string }) => v.name)], [false, 1, ["blue"]]);
  assertError(await call("POST", `/api/admin/archive/revive/${name}`), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/archive/revive/no-such-flag"), 404, "NotFoundError");

  assert.is((await call("POST", "/api/admin/projects/default/archive", { features: [name] })).status, 202);
  assert.is((await call("POST", "/api/admin/projects/default/revive", { features: [name, "no-such-flag"] })).status, 200);
  assert.is(await archivedAt(name), null);
  assertError(await call("POST", "/api/admin/projects/default/revive", {}), 400, "ValidationError");

  // A live flag is not deleted: a 400 alone, ignored in bulk; an unknown one a 404.
  assertError(await call("DELETE", `/api/admin/archive/${name}`), 400, "ValidationError");
  assert.is((await call("POST", "/api/admin/projects/default/delete", { features: [name] })).status, 200);
  assertError(await call("DELETE", "/api/admin/archive/no-such-flag"), 404, "NotFoundError");
  assert.is(await archivedAt(name), null);

  assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
  assert.is((await call("DELETE", `/api/admin/archive/${name}`)).status, 200);
  assert.is(await archivedAt(name), undefined);
  const types = await eventTypes(name);
  assert.equal(types.slice(-1), ["feature-deleted"]);
  assert.equal(
    types.filter((t) => t === "feature-archived" || t === "feature-revived"),
    ["feature-archived", "feature-revived", "feature-archived", "feature-revived", "feature-archived"],
  );
  const log = await call("GET", "/api/admin/events");
  assert.ok(
    (log.json.events as { featureName: string; type: string }[]).some((e) => e.featureName === name && e.type === "feature-deleted"),
  );
  // The name is free again.
  assert.is((await call("POST", FEATURES, { name })).status, 201);
  assert.is((await call("POST", "/api/admin/projects/default/delete", { features: [] })).status, 200);
});

test("permissions: an editor archives, revives and deletes; a viewer gets 403 naming the permission", async () => {
  const editor = (await userWithRole(srv, "editor")).headers;
  const viewer = (await userWithRole(srv, "viewer")).headers;
  const name = await newFlag();
  const refused = await call("DELETE", `${FEATURES}/${name}`, undefined, viewer);
  assertError(refused, 403, "NoAccessError");
  assert.match(refused.json.message, /"DELETE_FEATURE"/);
  assert.is((await call("DELETE", `${FEATURES}/${name}`, undefined, editor)).status, 202);
  assert.match((await call("POST", `/api/admin/archive/revive/${name}`, undefined, viewer)).json.message, /"UPDATE_FEATURE"/);
  assert.is((await call("POST", `/api/admin/archive/revive/${name}`, undefined, editor)).status, 200);
});

const eventsOf = (event: SseEvent) =>
  JSON.parse(event.data as string).events as { type: string; featureName?: string; feature?: { name: string } }[];

test("streaming and delta: archive is a feature-removed, revive a feature-updated", async () => {
  const name = await newFlag();
  const s = await openSse(`${srv.url}/api/client/streaming`, sdk);
  try {
    const connected = await nextEvent(s);
    const [hydration] = eventsOf(connected) as unknown as { features: { name: string }[] }[];
    assert.ok(hydration?.features.some((f) => f.name === name));
    const delta = await call("GET", "/api/client/delta", undefined, sdk);

    assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
    const removed = eventsOf(await nextEvent(s));
    assert.equal(
      removed.map((e) => [e.type, e.featureName]),
      [["feature-removed", name]],
    );
    const since = await call("GET", "/api/client/delta", undefined, { ...sdk, "if-none-match": delta.headers.etag as string });
    assert.equal(
      since.json.events.map((e: { type: string; featureName?: string }) => [e.type, e.featureName]),
      [["feature-removed", name]],
    );

    assert.is((await call("POST", `/api/admin/archive/revive/${name}`)).status, 200);
    const revived = eventsOf(await nextEvent(s));
    assert.equal(
      revived.map((e) => [e.type, e.feature?.name]),
      [["feature-updated", name]],
    );

    // Deleting an archived flag for good: it was gone already, and stays gone.
    assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
    assert.equal(
      eventsOf(await nextEvent(s)).map((e) => e.type),
      ["feature-removed"],
    );
    assert.is((await call("DELETE", `/api/admin/archive/${name}`)).status, 200);
    assert.not.ok((await clientNames()).includes(name));
  } finally {
    s.close();
  }
});

for (const mode of ["streaming", "polling"] as const) {
  test(`the Node SDK (${mode}) sees an archived flag disappear and come back on revive`, async () => {
    const name = await newFlag();
    const unleash = new Unleash({
      url: `${srv.url}/api/`,
      appName: `archive-${mode}`,
      customHeaders: sdk,
      disableMetrics: true,
      refreshInterval: mode === "polling" ? 50 : 60_000,
      ...(mode === "streaming" ? { experimentalMode: { type: "streaming" as const } } : {}),
    });
    const errors: unknown[] = [];
    unleash.on("error", (error) => errors.push(error));
    try {
      await once(unleash, "synchronized");
      assert.ok(unleash.isEnabled(name));
      assert.is((await call("DELETE", `${FEATURES}/${name}`)).status, 202);
      await sdkChangedUntil(unleash, () => unleash.getFeatureToggleDefinition(name) === undefined, `${name} archived`);
      assert.not.ok(unleash.isEnabled(name));

      assert.is((await call("POST", "/api/admin/projects/default/revive", { features: [name] })).status, 200);
      await sdkChangedUntil(unleash, () => unleash.getFeatureToggleDefinition(name) !== undefined, `${name} revived`);
      // Back off, as Unleash revives; switched on, it serves again.
      assert.not.ok(unleash.isEnabled(name));
      assert.is((await call("POST", `${FEATURES}/${name}/environments/development/on`)).status, 200);
      await sdkChangedUntil(unleash, () => unleash.isEnabled(name), `${name} on again`);
      assert.equal(errors, []);
    } finally {
      unleash.destroy();
    }
  });
}

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
