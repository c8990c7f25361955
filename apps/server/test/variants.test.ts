import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const adminUser = await userWithRole(srv, "admin");
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

// "default" has development and production enabled; "staging" exists but is enabled in no project.
for (const [path, body] of [
  ["/api/admin/environments", { name: "staging", type: "test" }],
  ["/api/admin/projects", { id: "other", name: "Other" }],
  ["/api/admin/projects/default/features", { name: "checkout" }],
  ["/api/admin/projects/other/features", { name: "elsewhere" }],
] as const) {
  const res = await srv.call("POST", path, { body, headers: admin });
  if (res.status !== 201) throw new Error(`setup ${path}: ${res.status} ${JSON.stringify(res.json)}`);
}

const url = (project: string, feature: string, environment: string) =>
  `/api/admin/projects/${project}/features/${feature}/environments/${environment}/variants`;
const CHECKOUT = url("default", "checkout", "production");

let n = 0;
/** A fresh feature in "default"; returns its production variants URL. */
async function freshFeature(): Promise<string> {
  const name = `f-${++n}`;
  const res = await srv.call("POST", "/api/admin/projects/default/features", { body: { name }, headers: admin });
  assert.is(res.status, 201);
  return url("default", name, "production");
}

const put = (path: string, body: unknown, headers = admin) => srv.call("PUT", path, { body, headers });
const get = (path: string, headers = admin) => srv.call("GET", path, { headers });

/** Everything a rejected request must leave as it was: every stored variant and every event. */
async function stored() {
  const rows = await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { rows, events };
}

async function weightsAfterPut(variants: unknown[]): Promise<[string, number][]> {
  const res = await put(await freshFeature(), variants);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.json.version, 1);
  return res.json.variants.map((v: { name: string; weight: number }) => [v.name, v.weight]);
}

test("GET answers {version: 1, variants: []} when there are none", async () => {
  const res = await get(await freshFeature());
  assert.equal([res.status, res.json], [200, { version: 1, variants: [] }]);
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
});

test("PUT answers the stored variants with defaults, and GET reads them back", async () => {
  const path = await freshFeature();
  const res = await put(path, [
    { name: "blue", payload: { type: "json", value: '{"a":1}' }, overrides: [{ contextName: "userId", values: ["7"] }] },
  ]);
  const expected = {
    version: 1,
    variants: [
      {
        name: "blue",
        weight: 1000,
        weightType: "variable",
        stickiness: "default",
        payload: { type: "json", value: '{"a":1}' },
        overrides: [{ contextName: "userId", values: ["7"] }],
      },
    ],
  };
  assert.equal([res.status, res.json], [200, expected]);
  assert.equal((await get(path)).json, expected);
});

test("weights: 1 variable -> 1000", async () => {
  assert.equal(await weightsAfterPut([{ name: "a" }]), [["a", 1000]]);
});

test("weights: 3 variable -> 334/333/333", async () => {
  assert.equal(await weightsAfterPut([{ name: "a" }, { name: "b" }, { name: "c" }]), [
    ["a", 334],
    ["b", 333],
    ["c", 333],
  ]);
});

test("weights: fix 900 + 6 variable -> 17,17,17,17,16,16", async () => {
  const variable = ["v1", "v2", "v3", "v4", "v5", "v6"].map((name) => ({ name }));
  assert.equal(await weightsAfterPut([{ name: "fix", weightType: "fix", weight: 900 }, ...variable]), [
    ["fix", 900],
    ["v1", 17],
    ["v2", 17],
    ["v3", 17],
    ["v4", 17],
    ["v5", 16],
    ["v6", 16],
  ]);
});

test("weights: fix 600 + fix 350 + variable -> 50", async () => {
  const weights = await weightsAfterPut([
    { name: "a", weightType: "fix", weight: 600 },
    { name: "b", weightType: "fix", weight: 350 },
    { name: "c" },
  ]);
  assert.equal(weights, [
    ["a", 600],
    ["b", 350],
    ["c", 50],
  ]);
});

test("weights: fix 900 + fix 100 + 2 variable -> 0, 0", async () => {
  const weights = await weightsAfterPut([
    { name: "a", weightType: "fix", weight: 900 },
    { name: "b", weightType: "fix", weight: 100 },
    { name: "c" },
    { name: "d" },
  ]);
  assert.equal(weights, [
    ["a", 900],
    ["b", 100],
    ["c", 0],
    ["d", 0],
  ]);
});

test("weights: fix sum over 1000 -> 400, nothing changes", async () => {
  const before = await stored();
  const res = await put(CHECKOUT, [
    { name: "a", weightType: "fix", weight: 700 },
    { name: "b", weightType: "fix", weight: 301 },
    { name: "c" },
  ]);
  assertError(res, 400, "ValidationError");
  assert.match(res.json.message, /more than 1000/);
  assert.equal(await stored(), before);
});

test("weights: only fix variants -> 400, nothing changes", async () => {
  const before = await stored();
  const res = await put(CHECKOUT, [{ name: "a", weightType: "fix", weight: 500 }]);
  assertError(res, 400, "ValidationError");
  assert.match(res.json.message, /There must be at least one "variable" variant/);
  assert.equal(await stored(), before);
});

test("variants come back sorted by name, whatever the order written", async () => {
  const path = await freshFeature();
  const res = await put(path, [{ name: "zeta" }, { name: "Beta" }, { name: "alpha" }, { name: "beta" }]);
  const names = ["Beta", "alpha", "beta", "zeta"];
  assert.equal(
    res.json.variants.map((v: { name: string }) => v.name),
    names,
  );
  assert.equal(
    (await get(path)).json.variants.map((v: { name: string }) => v.name),
    names,
  );
});

// Each body breaks one rule of docs/flag-model.md#variants; `field` is the detail path the 400 must name.
const rules: [string, unknown, string][] = [
  ["a body that is not an array", { name: "a" }, "variants"],
  ["a missing name", [{ weight: 10 }], "variants.0.name"],
  ["an empty name", [{ name: "" }], "variants.0.name"],
  ["a name that is not URL-safe", [{ name: "needs encoding" }], "variants.0.name"],
  ['the name ".."', [{ name: ".." }], "variants.0.name"],
  ["a name of 101 characters", [{ name: "x".repeat(101) }], "variants.0.name"],
  ["a name used twice", [{ name: "a" }, { name: "a" }], "variants.1.name"],
  ["a fractional weight", [{ name: "a", weight: 0.5 }], "variants.0.weight"],
  ["a negative weight", [{ name: "a", weight: -5 }], "variants.0.weight"],
  ["a weight over 1000", [{ name: "a", weight: 1001 }], "variants.0.weight"],
  ["an unknown weightType", [{ name: "a", weightType: "percent" }], "variants.0.weightType"],
  ['a "fix" variant without weight', [{ name: "a", weightType: "fix" }, { name: "b" }], "variants.0.weight"],
  ["a stickiness that is not a string", [{ name: "a", stickiness: false }], "variants.0.stickiness"],
  ["an unknown payload type", [{ name: "a", payload: { type: "yaml", value: "a: 1" } }], "variants.0.payload.type"],
  ["a JSON payload that does not parse", [{ name: "a", payload: { type: "json", value: "{'a': 1}" } }], "variants.0.payload.value"],
  ["a number payload that does not parse", [{ name: "a", payload: { type: "number", value: "ten" } }], "variants.0.payload.value"],
  ["a payload value that is not a string", [{ name: "a", payload: { type: "string", value: 1 } }], "variants.0.payload.value"],
  ["overrides without values", [{ name: "a", overrides: [{ contextName: "userId" }] }], "variants.0.overrides.0.values"],
  [
    "override values that are not strings",
    [{ name: "a", overrides: [{ contextName: "userId", values: [1] }] }],
    "variants.0.overrides.0.values.0",
  ],
  ["an unknown variant field", [{ name: "a", enabled: true }], "variants.0"],
];

for (const [rule, body, field] of rules) {
  test(`PUT with ${rule} is 400 naming ${field}; nothing changes`, async () => {
    await put(CHECKOUT, [{ name: "kept" }]);
    const before = await stored();
    const res = await put(CHECKOUT, body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `details ${JSON.stringify(res.json.details)} name ${field}`,
    );
    assert.equal(await stored(), before);
    assert.equal(
      (await get(CHECKOUT)).json.variants.map((v: { name: string }) => v.name),
      ["kept"],
    );
  });
}

test("PUT with malformed JSON is 400, and with another content type 415; nothing changes", async () => {
  const before = await stored();
  assertError(
    await srv.call("PUT", CHECKOUT, { raw: "[{", headers: { ...admin, "content-type": "application/json" } }),
    400,
    "ValidationError",
  );
  assertError(await srv.call("PUT", CHECKOUT, { raw: "[]", headers: { ...admin, "content-type": "text/plain" } }), 415, "ContentTypeerror");
  assert.equal(await stored(), before);
});

const notFound: [string, string, string][] = [
  ["an unknown project", url("ghost", "checkout", "production"), 'The project "ghost" does not exist.'],
  ["a feature of another project", url("other", "checkout", "production"), 'The feature "checkout" does not exist in the project "other".'],
  ["an unknown feature", url("default", "missing", "production"), 'The feature "missing" does not exist in the project "default".'],
  ["an unknown environment", url("default", "checkout", "moon"), 'The environment "moon" does not exist.'],
  [
    "an environment not enabled in the project",
    url("default", "checkout", "staging"),
    'The environment "staging" is not enabled in the project "default".',
  ],
];

for (const [what, path, message] of notFound) {
  test(`GET, PUT and PATCH of ${what} are 404 saying so; nothing changes`, async () => {
    const before = await stored();
    for (const res of [
      await get(path),
      await put(path, [{ name: "a" }]),
      await srv.call("PATCH", path, { body: [{ op: "add", path: "/-", value: { name: "a" } }], headers: admin }),
    ]) {
      assertError(res, 404, "NotFoundError");
      assert.is(res.json.message, message);
    }
    assert.equal(await stored(), before);
  });
}

test("read access: admin, editor and viewer users and an admin token get 200; a client token 403; nobody 401", async () => {
  for (const headers of [adminUser.headers, editor.headers, viewer.headers, admin]) {
    const res = await get(CHECKOUT, headers);
    assert.is(res.status, 200, JSON.stringify(res.json));
    assert.is(res.json.version, 1);
  }
  assertError(await get(CHECKOUT, client), 403, "NoAccessError");
  assertError(await get(CHECKOUT, {}), 401, "AuthenticationRequired");
});

test("write access: editors and admins may PUT; a viewer gets 403 naming the permission and environment", async () => {
  assert.is((await put(CHECKOUT, [{ name: "by-editor" }], editor.headers)).status, 200);
  assert.is((await put(CHECKOUT, [{ name: "by-admin" }], adminUser.headers)).status, 200);
  const before = await stored();
  for (const method of ["PUT", "PATCH"]) {
    const res = await srv.call(method, CHECKOUT, { body: [], headers: viewer.headers });
    assertError(res, 403, "NoAccessError");
    assert.is(
      res.json.message,
      'You need the "UPDATE_FEATURE_ENVIRONMENT_VARIANTS" permission to perform this action in the "production" environment.',
    );
  }
  assertError(await put(CHECKOUT, [], client), 403, "NoAccessError");
  assertError(await put(CHECKOUT, [], {}), 401, "AuthenticationRequired");
  assert.equal(await stored(), before);
});

test("a write records feature-environment-variants-updated with the user, before and after", async () => {
  const path = await freshFeature();
  const first = (await put(path, [{ name: "a" }], editor.headers)).json.variants;
  const second = (await put(path, [{ name: "b" }], editor.headers)).json.variants;
  const event = await db.selectFrom("events").selectAll().orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
  assert.equal(
    [
      event.type,
      event.created_by,
      event.created_by_user_id,
      event.project,
      event.environment,
      event.feature_name,
      event.data,
      event.pre_data,
    ],
    ["feature-environment-variants-updated", editor.username, editor.id, "default", "production", path.split("/")[6], second, first],
  );
});

test("variants of one environment never change another's", async () => {
  const production = await freshFeature();
  const development = production.replace("/production/", "/development/");
  await put(development, [{ name: "dev" }]);
  await put(production, [{ name: "p1" }, { name: "p2" }]);
  await put(production, []);
  assert.equal(
    (await get(development)).json.variants.map((v: { name: string }) => v.name),
    ["dev"],
  );
  assert.equal((await get(production)).json.variants, []);
});

test("the typed transport serves the same read", async () => {
  const input = encodeURIComponent(JSON.stringify({ projectId: "default", featureName: "checkout", environment: "production" }));
  const res = await srv.call("GET", `/trpc/features.variants?input=${input}`, { headers: admin });
  assert.is(res.status, 200);
  assert.is(res.json.result.data.version, 1);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
