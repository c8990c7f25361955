import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

await srv.call("POST", "/api/admin/projects", { body: { id: "other", name: "Other" }, headers: admin });

async function stored() {
  const features = await db.selectFrom("features").selectAll().orderBy("name").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { features, events };
}

const create = (project: string, body: unknown, headers = editor.headers) =>
  srv.call("POST", `/api/admin/projects/${project}/features`, { body, headers });

test("an editor creates a feature: 201 with it, Location, and an event naming the editor", async () => {
  const res = await create("default", { name: "checkout", description: "New checkout", type: "experiment" });
  assert.is(res.status, 201, JSON.stringify(res.json));
  assert.equal(
    { ...res.json, createdAt: "" },
    {
      name: "checkout",
      project: "default",
      description: "New checkout",
      type: "experiment",
      impressionData: false,
      createdAt: "",
      stale: false,
      archived: false,
      archivedAt: null,
      lastSeenAt: null,
    },
  );
  assert.is(res.headers.location, "/api/admin/projects/default/features/checkout");
  const event = await db.selectFrom("events").selectAll().where("type", "=", "feature-created").executeTakeFirstOrThrow();
  assert.equal([event.created_by, event.project, event.feature_name, event.data], [editor.username, "default", "checkout", res.json]);
  const plain = await create("default", { name: "plain" }, admin);
  assert.equal([plain.status, plain.json.type, plain.json.description], [201, "release", null]);
});

test("feature names are unique across projects: 409; nothing changes", async () => {
  const before = await stored();
  const res = await create("other", { name: "checkout" });
  assertError(res, 409, "NameExistsError");
  assert.is(res.json.message, 'A feature named "checkout" already exists.');
  assert.equal(await stored(), before);
});

test("bad feature bodies are 400 naming the field; nothing changes", async () => {
  const before = await stored();
  const bodies: [unknown, string][] = [
    [{ name: "with space" }, "name"],
    [{ name: "" }, "name"],
    [{ name: ".." }, "name"],
    [{ name: "f".repeat(101) }, "name"],
    [{ name: "ok", type: "banana" }, "type"],
    [{ name: "ok", impressionData: "yes" }, "impressionData"],
    [{ name: "ok", projectId: "other" }, "projectId"],
  ];
  for (const [body, field] of bodies) {
    const res = await create("default", body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assert.equal(await stored(), before);
});

test("creating in an unknown project is 404; a viewer 403 naming CREATE_FEATURE", async () => {
  const before = await stored();
  const missing = await create("ghost", { name: "boo" });
  assertError(missing, 404, "NotFoundError");
  assert.is(missing.json.message, 'The project "ghost" does not exist.');
  const denied = await create("default", { name: "boo" }, viewer.headers);
  assertError(denied, 403, "NoAccessError");
  assert.is(denied.json.message, 'You need the "CREATE_FEATURE" permission to perform this action.');
  assert.equal(await stored(), before);
});

test("GET .../features lists a project's features by name, for any authenticated caller", async () => {
  await create("other", { name: "b-other" });
  for (const headers of [admin, editor.headers, viewer.headers]) {
    const res = await srv.call("GET", "/api/admin/projects/default/features", { headers });
    assert.is(res.status, 200);
    assert.equal(
      res.json.features.map((f: { name: string }) => f.name),
      ["checkout", "plain"],
    );
  }
  assertError(await srv.call("GET", "/api/admin/projects/default/features", { headers: client }), 403, "NoAccessError");
  assertError(await srv.call("GET", "/api/admin/projects/ghost/features", { headers: admin }), 404, "NotFoundError");
});

test("GET .../features/{name} shows the feature with each environment of its project and its variants", async () => {
  const put = await srv.call("PUT", "/api/admin/projects/default/features/checkout/environments/development/variants", {
    body: [{ name: "b" }, { name: "a" }],
    headers: admin,
  });
  assert.is(put.status, 200);
  const res = await srv.call("GET", "/api/admin/projects/default/features/checkout", { headers: viewer.headers });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.json.name, "checkout");
  assert.equal(
    res.json.environments.map((e: any) => [e.name, e.type, e.enabled, e.variants.map((v: any) => [v.name, v.weight])]),
    [
      [
        "development",
        "development",
        false,
        [
          ["a", 500],
          ["b", 500],
        ],
      ],
      ["production", "production", false, []],
    ],
  );
});

test("GET .../features/{name}: unknown project, or a feature of another project, is 404 saying which", async () => {
  const project = await srv.call("GET", "/api/admin/projects/ghost/features/checkout", { headers: admin });
  assertError(project, 404, "NotFoundError");
  assert.is(project.json.message, 'The project "ghost" does not exist.');
  const elsewhere = await srv.call("GET", "/api/admin/projects/other/features/checkout", { headers: admin });
  assertError(elsewhere, 404, "NotFoundError");
  assert.is(elsewhere.json.message, 'The feature "checkout" does not exist in the project "other".');
});

test("the OpenAPI document describes the new routes", async () => {
  const doc = (await srv.call("GET", "/docs/openapi.json")).json;
  const variants = doc.paths["/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants"];
  assert.ok(variants.get && variants.put && variants.patch);
  assert.ok(doc.paths["/api/admin/projects"].post.responses["201"]);
  assert.ok(doc.components.schemas.FeatureVariants && doc.components.schemas.Variant);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test("the review's patch bomb: a PATCH whose copies double the flag is a 400 at once, on the flag and on its variants, and changes nothing", async () => {
  assert.is((await create("default", { name: "dos" })).status, 201);
  const before = await db.selectFrom("features").selectAll().where("name", "=", "dos").executeTakeFirstOrThrow();
  const bomb = Array.from({ length: 30 }, (_, i) => ({ op: "copy", from: "", path: i % 2 ? "/stale" : "/type" }));
  const flag = await srv.call("PATCH", "/api/admin/projects/default/features/dos", { body: bomb, headers: editor.headers });
  assertError(flag, 400, "ValidationError");
  assert.match(flag.json.message, /the document would be larger than 256 KiB/);
  const many = Array.from({ length: 101 }, () => ({ op: "test", path: "/name", value: "dos" }));
  const long = await srv.call("PATCH", "/api/admin/projects/default/features/dos", { body: many, headers: editor.headers });
  assertError(long, 400, "ValidationError");
  assert.match(long.json.message, /at most 100 operations; this one has 101/);
  const variants = "/api/admin/projects/default/features/dos/environments/development/variants";
  const variantBomb = Array.from({ length: 30 }, () => ({ op: "copy", from: "", path: "/-" }));
  assertError(await srv.call("PATCH", variants, { body: variantBomb, headers: editor.headers }), 400, "ValidationError");
  assertError(
    await srv.call("PATCH", variants, { body: many.map(() => ({ op: "test", path: "", value: [] })), headers: editor.headers }),
    400,
    "ValidationError",
  );
  assert.equal(await db.selectFrom("features").selectAll().where("name", "=", "dos").executeTakeFirstOrThrow(), before);
});

test("a body that breaks the schema is told in a sentence: which field, and what it must be", async () => {
  const cases: [string, string, unknown, string][] = [
    ["POST", "/auth/simple/login", { username: "admin" }, "The request is not valid: password is required."],
    ["POST", "/api/admin/projects/default/features", { name: "typed", type: 5 }, "The request is not valid: type must be a text."],
    [
      "POST",
      "/api/admin/projects/default/features",
      { name: "extra", bogus: 1 },
      'The request is not valid: the body has a field it does not know: "bogus".',
    ],
    [
      "POST",
      "/api/admin/api-tokens",
      { tokenName: "t", type: "nope" },
      'The request is not valid: type must be one of "admin", "client", "frontend", "scim".',
    ],
  ];
  for (const [method, path, body, message] of cases) {
    const res = await srv.call(method, path, { body, headers: admin });
    assertError(res, 400, "ValidationError");
    assert.is(res.json.message, message);
  }
});

test.run();
