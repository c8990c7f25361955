import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, userWithRole } from "./support/principals.ts";
import { type Reply, startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");

let n = 0;
/** A fresh feature in "default" whose production variants are `variants`; returns their URL. */
async function featureWith(variants: unknown[]): Promise<string> {
  const name = `patch-${++n}`;
  assert.is((await srv.call("POST", "/api/admin/projects/default/features", { body: { name }, headers: admin })).status, 201);
  const path = `/api/admin/projects/default/features/${name}/environments/production/variants`;
  assert.is((await srv.call("PUT", path, { body: variants, headers: admin })).status, 200);
  return path;
}

const patch = (path: string, ops: unknown, headers = editor.headers) => srv.call("PATCH", path, { body: ops, headers });
const summary = (res: Reply) => res.json.variants.map((v: { name: string; weight: number }) => [v.name, v.weight]);

async function stored() {
  const rows = await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { rows, events };
}

test("add appends a variant; weights are normalised again and the list sorted", async () => {
  const path = await featureWith([{ name: "b" }, { name: "c" }]);
  const res = await patch(path, [{ op: "add", path: "/-", value: { name: "a" } }]);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(summary(res), [
    ["a", 333],
    ["b", 334],
    ["c", 333],
  ]);
  assert.equal((await srv.call("GET", path, { headers: admin })).json, res.json);
});

test("replace changes a field of the variant at an index of the sorted list", async () => {
  const path = await featureWith([{ name: "b" }, { name: "a" }]);
  const res = await patch(path, [
    { op: "replace", path: "/0/weightType", value: "fix" },
    { op: "replace", path: "/0/weight", value: 250 },
    { op: "replace", path: "/1/stickiness", value: "userId" },
  ]);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(
    res.json.variants.map((v: any) => [v.name, v.weightType, v.weight, v.stickiness]),
    [
      ["a", "fix", 250, "default"],
      ["b", "variable", 750, "userId"],
    ],
  );
});

test("remove takes a variant out", async () => {
  const path = await featureWith([{ name: "a" }, { name: "b" }, { name: "c" }]);
  const res = await patch(path, [{ op: "remove", path: "/1" }]);
  assert.equal(
    [res.status, summary(res)],
    [
      200,
      [
        ["a", 500],
        ["c", 500],
      ],
    ],
  );
});

test("test: a passing test lets the patch through, a failing one is 400 and nothing changes", async () => {
  const path = await featureWith([{ name: "a" }]);
  const ok = await patch(path, [
    { op: "test", path: "/0/name", value: "a" },
    { op: "add", path: "/0/payload", value: { type: "string", value: "hello" } },
  ]);
  assert.is(ok.status, 200, JSON.stringify(ok.json));
  assert.equal(ok.json.variants[0].payload, { type: "string", value: "hello" });

  const before = await stored();
  const failed = await patch(path, [
    { op: "test", path: "/0/payload/value", value: "bye" },
    { op: "remove", path: "/0" },
  ]);
  assertError(failed, 400, "ValidationError");
  assert.match(failed.json.message, /operation 0 \(test "\/0\/payload\/value"\): the test failed/);
  assert.equal(failed.json.details, [
    { path: "patch.0", message: 'the test failed: the value at "/0/payload/value" is not the one given' },
  ]);
  assert.equal(await stored(), before);
});

test("move and copy", async () => {
  const path = await featureWith([{ name: "a", stickiness: "sessionId" }]);
  const res = await patch(path, [
    { op: "copy", from: "/0", path: "/1" },
    { op: "replace", path: "/1/name", value: "b" },
    { op: "move", from: "/0/stickiness", path: "/1/stickiness" },
  ]);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(
    res.json.variants.map((v: any) => [v.name, v.stickiness]),
    [
      ["a", "default"],
      ["b", "sessionId"],
    ],
  );
});

test("a patch that cannot apply is 400 saying why; nothing changes", async () => {
  const path = await featureWith([{ name: "a" }]);
  const before = await stored();
  const cases: [unknown[], RegExp][] = [
    [[{ op: "remove", path: "/3" }], /"\/3" does not exist: the array has 1 elements/],
    [[{ op: "replace", path: "/0/payload", value: { type: "string", value: "x" } }], /"\/0\/payload" does not exist/],
    [[{ op: "add", path: "0", value: {} }], /must be "" or start with "\/"/],
    [[{ op: "add", path: "/-" }], /"add" needs a "value"/],
  ];
  for (const [ops, why] of cases) {
    const res = await patch(path, ops);
    assertError(res, 400, "ValidationError");
    assert.match(res.json.message, why);
  }
  assert.equal(await stored(), before);
});

test("a patch whose result breaks a variant rule is 400 naming the field; nothing changes", async () => {
  const path = await featureWith([{ name: "a" }, { name: "b" }]);
  const before = await stored();
  const cases: [unknown[], string][] = [
    [[{ op: "replace", path: "/0/name", value: "b" }], "variants.1.name"],
    [[{ op: "replace", path: "/1/weight", value: -1 }], "variants.1.weight"],
    [[{ op: "add", path: "/0/extra", value: true }], "variants.0"],
    [
      [
        { op: "replace", path: "/0/weightType", value: "fix" },
        { op: "replace", path: "/1/weightType", value: "fix" },
      ],
      "variants",
    ],
  ];
  for (const [ops, field] of cases) {
    const res = await patch(path, ops);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      JSON.stringify(res.json.details),
    );
  }
  assert.equal(await stored(), before);
});

test("a body that is not a list of patch operations is 400 before anything is read", async () => {
  const before = await stored();
  const path = await featureWith([]);
  const afterSetup = await stored();
  for (const body of [
    { op: "add", path: "/-", value: {} },
    [{ op: "increment", path: "/0" }],
    [{ op: "remove" }],
    [{ op: "remove", path: "/0", extra: 1 }],
  ]) {
    assertError(await patch(path, body), 400, "ValidationError");
  }
  assert.ok(afterSetup.events.length > before.events.length);
  assert.equal(await stored(), afterSetup);
});

test("a patch records one event with the variants before and after", async () => {
  const path = await featureWith([{ name: "a" }]);
  const before = (await srv.call("GET", path, { headers: admin })).json.variants;
  const after = (await patch(path, [{ op: "add", path: "/-", value: { name: "b" } }])).json.variants;
  const event = await db.selectFrom("events").selectAll().orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
  assert.equal(
    [event.type, event.created_by, event.environment, event.data, event.pre_data],
    ["feature-environment-variants-updated", editor.username, "production", after, before],
  );
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
