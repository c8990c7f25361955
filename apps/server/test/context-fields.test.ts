import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The context-field registry (docs/context-fields.md): Unleash's /api/admin/context routes.
const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = editor.headers) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });

/** Every context field row, and the last event: what a refused request must leave as it was. */
async function stored() {
  return {
    fields: await db.selectFrom("context_fields").selectAll().orderBy("name").execute(),
    lastEvent: (await db.selectFrom("events").select("id").orderBy("id", "desc").limit(1).executeTakeFirst())?.id ?? 0,
  };
}
const eventsSince = async (id: number) =>
  (await db.selectFrom("events").select(["type", "data", "pre_data", "created_by"]).where("id", ">", id).orderBy("id").execute()).map(
    (e) => [e.type, e.data, e.pre_data, e.created_by],
  );

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test("the built-in fields, as Unleash 8.2 seeds them", async () => {
  const list = await call("GET", "/api/admin/context", undefined, viewer.headers);
  assert.is(list.status, 200);
  const shape = list.json.map(({ createdAt, ...rest }: { createdAt: string }) => {
    assert.match(createdAt, ISO);
    return rest;
  });
  assert.equal(shape, [
    {
      name: "appName",
      description: "Allows you to constrain on application name",
      stickiness: false,
      sortOrder: 2,
      legalValues: [],
      usedInProjects: 0,
      usedInFeatures: 0,
    },
    {
      name: "currentTime",
      description: "Allows you to constrain on date values",
      stickiness: false,
      sortOrder: 3,
      legalValues: [],
      usedInProjects: 0,
      usedInFeatures: 0,
    },
    {
      name: "environment",
      description: "Allows you to constrain on application environment",
      stickiness: false,
      sortOrder: 0,
      legalValues: [],
      usedInProjects: 0,
      usedInFeatures: 0,
    },
    {
      name: "sessionId",
      description: "Allows you to constrain on sessionId",
      stickiness: true,
      sortOrder: 4,
      legalValues: [],
      usedInProjects: 0,
      usedInFeatures: 0,
    },
    {
      name: "userId",
      description: "Allows you to constrain on userId",
      stickiness: false,
      sortOrder: 1,
      legalValues: [],
      usedInProjects: 0,
      usedInFeatures: 0,
    },
  ]);
});

test("create (201, Location, event), get, update, legal values, delete, each with its event", async () => {
  const before = await stored();
  const body = {
    name: "plan",
    description: "The customer's plan",
    stickiness: true,
    legalValues: [{ value: "pro", description: "Paying" }, { value: "free" }],
  };
  const created = await call("POST", "/api/admin/context", body);
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.is(created.headers.location, "context/plan");
  const { createdAt, ...rest } = created.json;
  assert.match(createdAt, ISO);
  assert.equal(rest, { ...body, sortOrder: 0 });
  assert.equal(await eventsSince(before.lastEvent), [["context-field-created", created.json, null, editor.username]]);
  assert.equal((await call("GET", "/api/admin/context/plan", undefined, viewer.headers)).json, created.json);

  const mark = (await stored()).lastEvent;
  assert.is(
    (await call("PUT", "/api/admin/context/plan", { description: "Plan", legalValues: [{ value: "pro" }], sortOrder: 7 })).status,
    200,
  );
  const updated = (await call("GET", "/api/admin/context/plan")).json;
  assert.equal(updated, { ...created.json, description: "Plan", stickiness: false, sortOrder: 7, legalValues: [{ value: "pro" }] });
  // Left out, the sort order stays (Unleash resets it to 0: docs/context-fields.md#differences-from-unleash).
  assert.is((await call("PUT", "/api/admin/context/plan", { description: "Plan", legalValues: [{ value: "pro" }] })).status, 200);
  assert.is((await call("GET", "/api/admin/context/plan")).json.sortOrder, 7);

  assert.is((await call("POST", "/api/admin/context/plan/legal-values", { value: "team", description: "Teams" })).status, 200);
  assert.is((await call("POST", "/api/admin/context/plan/legal-values", { value: "pro", description: "Paying" })).status, 200);
  assert.equal((await call("GET", "/api/admin/context/plan")).json.legalValues, [
    { value: "pro", description: "Paying" },
    { value: "team", description: "Teams" },
  ]);
  assert.is((await call("DELETE", "/api/admin/context/plan/legal-values/team")).status, 200);
  assert.equal((await call("GET", "/api/admin/context/plan")).json.legalValues, [{ value: "pro", description: "Paying" }]);
  const types = (await eventsSince(mark)).map((e) => e[0]);
  assert.equal(types, Array(5).fill("context-field-updated"));

  const gone = (await stored()).lastEvent;
  assert.is((await call("DELETE", "/api/admin/context/plan")).status, 200);
  assertError(await call("GET", "/api/admin/context/plan"), 404, "NotFoundError");
  const [[type, data, preData] = []] = await eventsSince(gone);
  assert.equal([type, data, (preData as { name: string } | undefined)?.name], ["context-field-deleted", null, "plan"]);
});

test("validate: 200 for a free name, 409 for a taken one, 400 for a bad one; nothing stored", async () => {
  const before = await stored();
  assert.is((await call("POST", "/api/admin/context/validate", { name: "region" })).status, 200);
  assertError(await call("POST", "/api/admin/context/validate", { name: "userId" }), 409, "NameExistsError");
  assertError(await call("POST", "/api/admin/context/validate", { name: "has space" }), 400, "ValidationError");
  assert.equal(await stored(), before);
});

test("bad input and missing fields change nothing", async () => {
  const before = await stored();
  assertError(await call("POST", "/api/admin/context", { name: "userId" }), 409, "NameExistsError");
  assertError(await call("POST", "/api/admin/context", { name: "a/b" }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/context", { name: "x".repeat(101) }), 400, "ValidationError");
  assertError(
    await call("POST", "/api/admin/context", { name: "dup", legalValues: [{ value: "a" }, { value: "a" }] }),
    400,
    "ValidationError",
  );
  assertError(await call("POST", "/api/admin/context", { name: "long", description: "d".repeat(251) }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/context", { name: "empty", legalValues: [{ value: "" }] }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/context", { name: "extra", unknown: 1 }), 400, "ValidationError");
  assertError(await call("PUT", "/api/admin/context/nope", { description: "x" }), 404, "NotFoundError");
  assertError(await call("POST", "/api/admin/context/nope/legal-values", { value: "x" }), 404, "NotFoundError");
  assertError(await call("DELETE", "/api/admin/context/nope/legal-values/x"), 404, "NotFoundError");
  assertError(await call("DELETE", "/api/admin/context/nope"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/context/nope"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/context/nope/strategies"), 404, "NotFoundError");
  assert.equal(await stored(), before);
});

test("who may: reading for anyone signed in, writing for Editors and Admins", async () => {
  const before = await stored();
  assertError(await call("POST", "/api/admin/context", { name: "by-viewer" }, viewer.headers), 403, "NoAccessError");
  assertError(await call("PUT", "/api/admin/context/userId", { description: "x" }, viewer.headers), 403, "NoAccessError");
  assertError(await call("DELETE", "/api/admin/context/appName", undefined, viewer.headers), 403, "NoAccessError");
  assertError(await call("GET", "/api/admin/context", undefined, client), 403, "NoAccessError");
  assertError(await srv.call("GET", "/api/admin/context"), 401, "AuthenticationRequired");
  assert.equal(await stored(), before);
  assert.is((await call("POST", "/api/admin/context", { name: "by-admin" }, admin)).status, 201);
});

test("in use: the strategies that constrain on a field are listed and counted, and it cannot be deleted", async () => {
  assert.is((await call("POST", "/api/admin/context", { name: "region" })).status, 201);
  for (const name of ["ctx-one", "ctx-two", "ctx-archived"]) {
    assert.is((await call("POST", "/api/admin/projects/default/features", { name }, admin)).status, 201);
  }
  const strategy = { name: "default", constraints: [{ contextName: "region", operator: "IN", values: ["eu"] }] };
  const added = [];
  for (const [feature, environment] of [
    ["ctx-one", "development"],
    ["ctx-two", "development"],
    ["ctx-archived", "development"],
  ] as const) {
    const res = await call(
      "POST",
      `/api/admin/projects/default/features/${feature}/environments/${environment}/strategies`,
      strategy,
      admin,
    );
    assert.is(res.status, 200, JSON.stringify(res.json));
    added.push({ id: res.json.id, projectId: "default", featureName: feature, strategyName: "default", environment });
  }
  assert.is((await call("DELETE", "/api/admin/projects/default/features/ctx-archived", undefined, admin)).status, 202);

  const strategies = await call("GET", "/api/admin/context/region/strategies", undefined, viewer.headers);
  assert.equal([strategies.status, strategies.json], [200, { strategies: added.slice(0, 2) }]);
  const listed = (await call("GET", "/api/admin/context")).json.find((f: { name: string }) => f.name === "region");
  assert.equal([listed.usedInFeatures, listed.usedInProjects], [2, 1]);
  assert.equal((await call("GET", "/api/admin/context/userId/strategies")).json, { strategies: [] });

  const before = await stored();
  assertError(await call("DELETE", "/api/admin/context/region"), 409, "ConflictError");
  assert.equal(await stored(), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
