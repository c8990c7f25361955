import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = editor.headers) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });

for (const name of ["tagged-one", "tagged-two", "tagged-old"]) {
  assert.is((await call("POST", "/api/admin/projects/default/features", { name }, admin)).status, 201);
}
assert.is((await call("POST", "/api/admin/projects", { id: "elsewhere", name: "Elsewhere" }, admin)).status, 201);
assert.is((await call("POST", "/api/admin/projects/elsewhere/features", { name: "tagged-far" }, admin)).status, 201);
// Archiving is another capability's route; the column is what it sets.
await db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", "tagged-old").execute();

/** Every row tags touch, and the last event: what a refused request must leave as it was. */
async function stored() {
  return {
    tagTypes: await db.selectFrom("tag_types").selectAll().orderBy("name").execute(),
    tags: await db.selectFrom("tags").selectAll().orderBy("type").orderBy("value").execute(),
    featureTags: await db.selectFrom("feature_tags").selectAll().orderBy("feature_name").orderBy("tag_type").orderBy("tag_value").execute(),
    lastEvent: (await db.selectFrom("events").select("id").orderBy("id", "desc").limit(1).executeTakeFirst())?.id ?? 0,
  };
}
const eventsSince = async (id: number) =>
  (
    await db
      .selectFrom("events")
      .select(["type", "project", "feature_name", "data", "pre_data", "created_by"])
      .where("id", ">", id)
      .orderBy("id")
      .execute()
  ).map((e) => [e.type, e.project, e.feature_name, e.data ?? e.pre_data, e.created_by]);

test("tag types: list, create (201, Location, event), get, validate, update, delete, with Unleash's bodies", async () => {
  const list = await call("GET", "/api/admin/tag-types", undefined, viewer.headers);
  assert.is(list.status, 200);
  assert.equal(list.json, {
    version: 1,
    tagTypes: [{ name: "simple", description: "Used to simplify filtering of features", icon: "#", color: "#FFFFFF" }],
  });

  const before = await stored();
  const created = await call("POST", "/api/admin/tag-types", { name: "squad", description: "Owning squad", color: "#aabbcc" });
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.equal(created.json, { name: "squad", description: "Owning squad", icon: null, color: "#aabbcc" });
  assert.is(created.headers.location, "/api/admin/tag-types/squad");
  assert.equal(await eventsSince(before.lastEvent), [["tag-type-created", null, null, created.json, editor.username]]);

  const got = await call("GET", "/api/admin/tag-types/squad", undefined, viewer.headers);
  assert.equal([got.status, got.json], [200, { version: 1, tagType: created.json }]);

  const valid = await call("POST", "/api/admin/tag-types/validate", { name: "squad-2" }, viewer.headers);
  assert.equal([valid.status, valid.json], [200, { valid: true, tagType: { name: "squad-2" } }]);
  assertError(await call("POST", "/api/admin/tag-types/validate", { name: "squad" }), 409, "NameExistsError");
  assertError(await call("POST", "/api/admin/tag-types/validate", { name: "s q" }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/tag-types", { name: "squad" }), 409, "NameExistsError");

  const mark = await stored();
  const updated = await call("PUT", "/api/admin/tag-types/squad", { icon: "people", color: null });
  assert.equal([updated.status, updated.json], [200, {}]);
  const after = { name: "squad", description: "Owning squad", icon: "people", color: null };
  assert.equal((await call("GET", "/api/admin/tag-types/squad")).json.tagType, after);
  assert.equal(await eventsSince(mark.lastEvent), [["tag-type-updated", null, null, after, editor.username]]);
  assertError(await call("PUT", "/api/admin/tag-types/no-such-type", { description: "x" }), 404, "NotFoundError");
  assertError(await call("PUT", "/api/admin/tag-types/squad", { name: "renamed" }), 400, "ValidationError");

  const deleted = await call("DELETE", "/api/admin/tag-types/squad");
  assert.equal([deleted.status, deleted.json], [200, {}]);
  assertError(await call("GET", "/api/admin/tag-types/squad"), 404, "NotFoundError");
  assertError(await call("DELETE", "/api/admin/tag-types/squad"), 404, "NotFoundError");
});

test("tag types: bad bodies are a 400 naming the field and store nothing", async () => {
  const before = await stored();
  const cases: [unknown, string][] = [
    [{ name: "x" }, "name"],
    [{ name: "y".repeat(51) }, "name"],
    [{ name: "with space" }, "name"],
    [{ name: "a/b" }, "name"],
    [{ name: ".." }, "name"],
    [{ name: 123 }, "name"],
    [{ description: "no name" }, "name"],
    [{ name: "fine", color: "red" }, "color"],
    [{ name: "fine", color: "" }, "color"],
    [{ name: "fine", description: 5 }, "description"],
  ];
  for (const [body, path] of cases) {
    const res = await call("POST", "/api/admin/tag-types", body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === path),
      `${JSON.stringify(body)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assertError(await call("POST", "/api/admin/tag-types", { name: "fine", extra: true }), 400, "ValidationError");
  assertError(await call("PUT", "/api/admin/tag-types/simple", { color: "#12345" }), 400, "ValidationError");
  assert.equal(await stored(), before);
});

test("tags: create trims the value (201, Location, event); get, list, list of a type; a taken tag is a 409, an unknown type a 400", async () => {
  const before = await stored();
  const created = await call("POST", "/api/admin/tags", { type: "simple", value: "  Team / Ü  " }, viewer.headers);
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.equal(created.json, { version: 1, tag: { type: "simple", value: "Team / Ü" } });
  assert.is(created.headers.location, "/api/admin/tags/simple/Team%20%2F%20%C3%9C");
  assert.equal(await eventsSince(before.lastEvent), [["tag-created", null, null, { type: "simple", value: "Team / Ü" }, viewer.username]]);

  const got = await call("GET", created.headers.location as string);
  assert.equal([got.status, got.json], [200, created.json]);
  assert.ok((await call("GET", "/api/admin/tags")).json.tags.some((t: { value: string }) => t.value === "Team / Ü"));
  const ofType = await call("GET", "/api/admin/tags/simple");
  assert.is(ofType.status, 200);
  assert.ok(ofType.json.tags.every((t: { type: string }) => t.type === "simple"));
  assertError(await call("GET", "/api/admin/tags/no-such-type"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/tags/simple/no-such-value"), 404, "NotFoundError");

  const after = await stored();
  assertError(await call("POST", "/api/admin/tags", { type: "simple", value: "Team / Ü" }), 409, "NameExistsError");
  const unknown = await call("POST", "/api/admin/tags", { type: "no-such-type", value: "abc" });
  assertError(unknown, 400, "ValidationError");
  assert.equal(unknown.json.details, [{ path: "type", message: "Tag type 'no-such-type' does not exist" }]);
  for (const value of ["a", " a ", "  ", "z".repeat(51), "two\nlines"]) {
    assertError(await call("POST", "/api/admin/tags", { type: "simple", value }), 400, "ValidationError");
  }
  assertError(await call("POST", "/api/admin/tags", { value: "no-type" }), 400, "ValidationError");
  assert.equal(await stored(), after);
});

test("deleting a tag (UPDATE_FEATURE) takes it off every flag; an unknown tag is a 404", async () => {
  assert.is((await call("POST", "/api/admin/features/tagged-one/tags", { type: "simple", value: "short-lived" })).status, 201);
  assertError(await call("DELETE", "/api/admin/tags/simple/short-lived", undefined, viewer.headers), 403, "NoAccessError");
  const before = await stored();
  const deleted = await call("DELETE", "/api/admin/tags/simple/short-lived");
  assert.equal([deleted.status, deleted.json], [200, {}]);
  assert.equal((await call("GET", "/api/admin/features/tagged-one/tags")).json.tags, []);
  assert.equal(await eventsSince(before.lastEvent), [
    ["tag-deleted", null, null, { type: "simple", value: "short-lived" }, editor.username],
  ]);
  assertError(await call("DELETE", "/api/admin/tags/simple/short-lived"), 404, "NotFoundError");
});

test("a flag's tags: POST tags it (201, the tag made if new, the flag's project on the event), again changes nothing, GET lists them with colour", async () => {
  const before = await stored();
  const added = await call("POST", "/api/admin/features/tagged-far/tags", { type: "simple", value: " far-away ", color: "#000000" });
  assert.is(added.status, 201, JSON.stringify(added.json));
  assert.equal(added.json, { type: "simple", value: "far-away" });
  assert.is(added.headers.location, "/api/admin/features/tagged-far/tags");
  assert.equal(await eventsSince(before.lastEvent), [
    ["tag-created", null, null, { type: "simple", value: "far-away" }, editor.username],
    ["feature-tagged", "elsewhere", "tagged-far", { type: "simple", value: "far-away" }, editor.username],
  ]);
  const after = await stored();
  assert.is((await call("POST", "/api/admin/features/tagged-far/tags", { type: "simple", value: "far-away" })).status, 201);
  assert.equal(await stored(), after);

  const listed = await call("GET", "/api/admin/features/tagged-far/tags", undefined, viewer.headers);
  assert.equal([listed.status, listed.json], [200, { version: 1, tags: [{ type: "simple", value: "far-away", color: "#FFFFFF" }] }]);
  assertError(await call("GET", "/api/admin/features/no-such-flag/tags"), 404, "NotFoundError");
});

test("a flag's tags: missing flag 404, archived flag 409, unknown type 400, bad body 400, viewer 403, client token 403; nothing stored", async () => {
  const before = await stored();
  const tag = { type: "simple", value: "refused" };
  assertError(await call("POST", "/api/admin/features/no-such-flag/tags", tag), 404, "NotFoundError");
  assertError(await call("POST", "/api/admin/features/tagged-old/tags", tag), 409, "ConflictError");
  assertError(await call("PUT", "/api/admin/features/tagged-old/tags", { addedTags: [tag], removedTags: [] }), 409, "ConflictError");
  assertError(await call("DELETE", "/api/admin/features/tagged-old/tags/simple/refused"), 409, "ConflictError");
  const unknown = await call("POST", "/api/admin/features/tagged-one/tags", { type: "no-such-type", value: "abc" });
  assertError(unknown, 400, "ValidationError");
  assert.equal(unknown.json.details[0].path, "type");
  assertError(await call("POST", "/api/admin/features/tagged-one/tags", { type: "simple", value: "  " }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/features/tagged-one/tags", { value: "abc" }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/features/tagged-one/tags", { ...tag, extra: 1 }), 400, "ValidationError");
  assertError(await call("PUT", "/api/admin/features/tagged-one/tags", { addedTags: [] }), 400, "ValidationError");
  assertError(await call("POST", "/api/admin/features/tagged-one/tags", tag, viewer.headers), 403, "NoAccessError");
  assertError(await call("POST", "/api/admin/features/tagged-one/tags", tag, client), 403, "NoAccessError");
  assertError(await call("POST", "/api/admin/tag-types", { name: "viewers-type" }, viewer.headers), 403, "NoAccessError");
  // The archived flag's tags can still be read.
  assert.is((await call("GET", "/api/admin/features/tagged-old/tags")).status, 200);
  assert.equal(await stored(), before);
});

test("PUT a flag's tags adds then removes in one transaction and answers the flag's tags; one bad tag refuses all", async () => {
  assert.is((await call("POST", "/api/admin/features/tagged-two/tags", { type: "simple", value: "old-one" })).status, 201);
  const before = await stored();
  const res = await call("PUT", "/api/admin/features/tagged-two/tags", {
    addedTags: [
      { type: "simple", value: "new-one" },
      { type: "simple", value: "new-two" },
    ],
    removedTags: [{ type: "simple", value: "old-one" }],
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(res.json, {
    version: 1,
    tags: [
      { type: "simple", value: "new-one", color: "#FFFFFF" },
      { type: "simple", value: "new-two", color: "#FFFFFF" },
    ],
  });
  assert.equal(
    (await eventsSince(before.lastEvent)).map(([type, , feature, data]) => [type, feature, (data as { value: string }).value]),
    [
      ["tag-created", null, "new-one"],
      ["tag-created", null, "new-two"],
      ["feature-tagged", "tagged-two", "new-one"],
      ["feature-tagged", "tagged-two", "new-two"],
      ["feature-untagged", "tagged-two", "old-one"],
    ],
  );

  const after = await stored();
  const refused = await call("PUT", "/api/admin/features/tagged-two/tags", {
    addedTags: [
      { type: "simple", value: "would-be-made" },
      { type: "no-such-type", value: "never" },
    ],
    removedTags: [{ type: "simple", value: "new-one" }],
  });
  assertError(refused, 400, "ValidationError");
  assert.equal(refused.json.details[0].path, "addedTags.1.type");
  assert.equal(await stored(), after);

  const removed = await call("DELETE", "/api/admin/features/tagged-two/tags/simple/new-one");
  assert.equal([removed.status, removed.json], [200, {}]);
  const mark = await stored();
  assert.is((await call("DELETE", "/api/admin/features/tagged-two/tags/simple/new-one")).status, 200);
  assert.equal(await stored(), mark);
  assertError(await call("DELETE", "/api/admin/features/no-such-flag/tags/simple/new-one"), 404, "NotFoundError");
});

test("PUT a project's tags: the same changes for several flags, in one transaction; a flag of another project refuses all", async () => {
  const before = await stored();
  const body = {
    features: ["tagged-one", "tagged-two"],
    tags: { addedTags: [{ type: "simple", value: "bulk-tag" }], removedTags: [{ type: "simple", value: "new-two" }] },
  };
  const res = await call("PUT", "/api/admin/projects/default/tags", body);
  assert.equal([res.status, res.json], [200, {}]);
  for (const feature of ["tagged-one", "tagged-two"]) {
    const values = (await call("GET", `/api/admin/features/${feature}/tags`)).json.tags.map((t: { value: string }) => t.value);
    assert.ok(values.includes("bulk-tag") && !values.includes("new-two"), `${feature}: ${values}`);
  }
  assert.equal(
    (await eventsSince(before.lastEvent)).map(([type, project, feature]) => [type, project, feature]),
    [
      ["tag-created", null, null],
      ["feature-tagged", "default", "tagged-one"],
      ["feature-tagged", "default", "tagged-two"],
      ["feature-untagged", "default", "tagged-two"],
    ],
  );

  const after = await stored();
  const changes = { addedTags: [{ type: "simple", value: "bulk-never" }], removedTags: [{ type: "simple", value: "bulk-tag" }] };
  const foreign = await call("PUT", "/api/admin/projects/default/tags", { features: ["tagged-one", "tagged-far"], tags: changes });
  assertError(foreign, 400, "ValidationError");
  assert.equal(foreign.json.details[0].path, "features.1");
  assertError(
    await call("PUT", "/api/admin/projects/default/tags", { features: ["tagged-one", "no-such-flag"], tags: changes }),
    400,
    "ValidationError",
  );
  assertError(
    await call("PUT", "/api/admin/projects/default/tags", { features: ["tagged-one", "tagged-old"], tags: changes }),
    409,
    "ConflictError",
  );
  assertError(await call("PUT", "/api/admin/projects/no-such-project/tags", { features: [], tags: changes }), 404, "NotFoundError");
  assertError(await call("PUT", "/api/admin/projects/default/tags", { features: [""], tags: changes }), 400, "ValidationError");
  assertError(
    await call("PUT", "/api/admin/projects/default/tags", { features: ["tagged-one"], tags: changes, x: 1 }),
    400,
    "ValidationError",
  );
  assertError(
    await call("PUT", "/api/admin/projects/default/tags", { features: ["tagged-one"], tags: changes }, viewer.headers),
    403,
    "NoAccessError",
  );
  assert.equal(await stored(), after);
});

test("tags over tRPC are the same procedures", async () => {
  const res = await srv.call("POST", "/trpc/featureTags.add", {
    headers: editor.headers,
    body: { featureName: "tagged-one", type: "simple", value: "over-trpc" },
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
  const listed = await srv.call(
    "GET",
    `/trpc/featureTags.list?input=${encodeURIComponent(JSON.stringify({ featureName: "tagged-one" }))}`,
    {
      headers: viewer.headers,
    },
  );
  assert.ok(listed.json.result.data.tags.some((t: { value: string }) => t.value === "over-trpc"));
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
