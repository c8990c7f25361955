import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addFeatureTag,
  ConflictError,
  createFeature,
  createProject,
  createTag,
  createTagType,
  deleteTag,
  deleteTagType,
  getTagType,
  listFeatureTags,
  listTags,
  listTagsOfType,
  listTagTypes,
  NameExistsError,
  NotFoundError,
  type Principal,
  removeFeatureTag,
  updateFeatureTags,
  updateProjectFeatureTags,
  updateTagType,
  ValidationError,
  validateTagType,
} from "../src/index.ts";
import { storeClientMetrics } from "../src/client-metrics/store-client-metrics.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const carol: Principal = { kind: "user", userId: 11, username: "carol", rootRole: 2, via: "session" };

await write(async (trx) => {
  await createProject(trx, null, { id: "shop", name: "Shop" });
  await createTagType(trx, null, { name: "team", description: "Who owns it", color: "#00ff00" });
  for (const name of ["checkout", "search", "legacy"]) await createFeature(trx, null, "default", { name });
  await createFeature(trx, null, "shop", { name: "cart" });
});
await db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", "legacy").execute();

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

/** What a refused write must leave as it was. */
async function stored() {
  return {
    tagTypes: await db.selectFrom("tag_types").selectAll().orderBy("name").execute(),
    tags: await db.selectFrom("tags").selectAll().orderBy("type").orderBy("value").execute(),
    featureTags: await db.selectFrom("feature_tags").selectAll().orderBy("feature_name").orderBy("tag_type").orderBy("tag_value").execute(),
    lastEvent: (await db.selectFrom("events").select("id").orderBy("id", "desc").limit(1).executeTakeFirst())?.id,
  };
}

const eventsAfter = (id: number | undefined) =>
  db
    .selectFrom("events")
    .select(["type", "project", "feature_name", "data", "pre_data", "created_by"])
    .where("id", ">", id ?? 0)
    .orderBy("id")
    .execute();

test("the seeded type is simple, white, as in Unleash; types list by name", async () => {
  assert.equal(await getTagType(db, "simple"), {
    name: "simple",
    description: "Used to simplify filtering of features",
    icon: "#",
    color: "#FFFFFF",
  });
  assert.equal(
    (await listTagTypes(db)).map((t) => t.name),
    ["simple", "team"],
  );
});

test("tag type names: 2-50 characters that need no URL encoding; bad input is a 400 naming the field, nothing stored", async () => {
  const before = await stored();
  for (const name of ["a", "x".repeat(51), "has space", "a/b", "é-type", ".", "..", ""]) {
    const error = await rejects(createTagType(db, carol, { name }), ValidationError);
    assert.equal([...new Set(error.details.map((d) => d.path))], ["name"], name);
    await rejects(validateTagType(db, { name }), ValidationError);
  }
  for (const body of [
    { name: "okay", color: "red" },
    { name: "okay", color: "" },
    { name: "okay", extra: 1 },
    { description: "no name" },
  ]) {
    await rejects(createTagType(db, carol, body), ValidationError);
  }
  assert.equal(await stored(), before);
  const odd = await createTagType(db, carol, { name: "A-b_c.d~e!*'()" });
  assert.equal(odd, { name: "A-b_c.d~e!*'()", description: null, icon: null, color: null });
  await deleteTagType(db, carol, odd.name);
});

test("createTagType stores the type and its event; a taken name is a 409, also for validate", async () => {
  const before = await stored();
  const created = await createTagType(db, carol, { name: "area", description: "", icon: "map", color: "#AbCdEf" });
  assert.equal(created, { name: "area", description: "", icon: "map", color: "#AbCdEf" });
  assert.equal(await eventsAfter(before.lastEvent), [
    { type: "tag-type-created", project: null, feature_name: null, data: created, pre_data: null, created_by: "carol" },
  ]);
  const after = await stored();
  const error = await rejects(createTagType(db, carol, { name: "area" }), NameExistsError);
  assert.is(error.message, "There already exists a tag-type with the name area");
  await rejects(validateTagType(db, { name: "area" }), NameExistsError);
  await validateTagType(db, { name: "area-2", color: null });
  assert.equal(await stored(), after);
});

test("updateTagType: a field left out keeps its value, null clears it; before and after in the event; an unknown type is a 404", async () => {
  await createTagType(db, null, { name: "colour", description: "d", icon: "i", color: "#123456" });
  const before = await stored();
  const updated = await updateTagType(db, carol, "colour", { description: "changed", icon: null });
  assert.equal(updated, { name: "colour", description: "changed", icon: null, color: "#123456" });
  assert.equal(await getTagType(db, "colour"), updated);
  const [event] = await eventsAfter(before.lastEvent);
  assert.equal(event, {
    type: "tag-type-updated",
    project: null,
    feature_name: null,
    data: updated,
    pre_data: { name: "colour", description: "d", icon: "i", color: "#123456" },
    created_by: "carol",
  });
  const after = await stored();
  await rejects(updateTagType(db, carol, "no-such-type", { description: "x" }), NotFoundError);
  await rejects(updateTagType(db, carol, "colour", { name: "renamed" }), ValidationError);
  await rejects(updateTagType(db, carol, "colour", { color: "#12345" }), ValidationError);
  assert.equal(await stored(), after);
});

test("tag values are trimmed, then 2-50 characters on one line; any characters otherwise, as Unleash's POST /tags", async () => {
  const tag = await createTag(db, carol, { type: "team", value: "  Payments / Ü ⚑  " });
  assert.equal(tag, { type: "team", value: "Payments / Ü ⚑" });
  const before = await stored();
  for (const value of ["a", "  a  ", "   ", "x".repeat(51), "line\nbreak", "a\u2028b"]) {
    const error = await rejects(createTag(db, carol, { type: "team", value }), ValidationError);
    assert.equal(
      error.details.map((d) => d.path),
      ["value"],
      JSON.stringify(value),
    );
  }
  await rejects(createTag(db, carol, { type: "no such", value: "ok" }), ValidationError);
  const unknown = await rejects(createTag(db, carol, { type: "nope", value: "ok" }), ValidationError);
  assert.equal(unknown.details, [{ path: "type", message: "Tag type 'nope' does not exist" }]);
  await rejects(createTag(db, carol, { type: "team", value: "Payments / Ü ⚑" }), NameExistsError);
  assert.equal(await stored(), before);
  assert.ok(await createTag(db, carol, { type: "team", value: ` ${"y".repeat(50)}\t` }));
});

test("tags list by type and value; a type's list is a 404 when the type does not exist; deleting a tag untags every flag", async () => {
  await createTagType(db, null, { name: "listing" });
  await createTag(db, null, { type: "listing", value: "b-tag" });
  await createTag(db, null, { type: "listing", value: "a-tag" });
  assert.equal(await listTagsOfType(db, "listing"), [
    { type: "listing", value: "a-tag" },
    { type: "listing", value: "b-tag" },
  ]);
  const all = await listTags(db);
  assert.equal(
    all.filter((t) => t.type === "listing"),
    await listTagsOfType(db, "listing"),
  );
  await rejects(listTagsOfType(db, "no-such-type"), NotFoundError);

  await addFeatureTag(db, null, "search", { type: "listing", value: "a-tag" });
  const before = await stored();
  await deleteTag(db, carol, { type: "listing", value: "a-tag" });
  assert.equal(await listFeatureTags(db, "search"), []);
  assert.equal(await eventsAfter(before.lastEvent), [
    {
      type: "tag-deleted",
      project: null,
      feature_name: null,
      data: { type: "listing", value: "a-tag" },
      pre_data: null,
      created_by: "carol",
    },
  ]);
  await rejects(deleteTag(db, carol, { type: "listing", value: "a-tag" }), NotFoundError);
});

test("addFeatureTag makes a new tag, tags the flag with the flag's project on the event; again changes nothing", async () => {
  const before = await stored();
  const value = unique("fresh");
  assert.equal(await addFeatureTag(db, carol, "cart", { type: "team", value: ` ${value} `, color: "#000000" }), { type: "team", value });
  assert.equal(await listFeatureTags(db, "cart"), [{ type: "team", value, color: "#00ff00" }]);
  assert.equal(await eventsAfter(before.lastEvent), [
    { type: "tag-created", project: null, feature_name: null, data: { type: "team", value }, pre_data: null, created_by: "carol" },
    { type: "feature-tagged", project: "shop", feature_name: "cart", data: { type: "team", value }, pre_data: null, created_by: "carol" },
  ]);
  const after = await stored();
  assert.equal(await addFeatureTag(db, carol, "cart", { type: "team", value }), { type: "team", value });
  assert.equal(await stored(), after);
});

test("addFeatureTag: a missing flag is a 404, an archived one a 409, an unknown type a 400 naming type; nothing stored", async () => {
  const before = await stored();
  await rejects(addFeatureTag(db, carol, "no-such-flag", { type: "team", value: "x1" }), NotFoundError);
  const archived = await rejects(addFeatureTag(db, carol, "legacy", { type: "team", value: "x1" }), ConflictError);
  assert.match(archived.message, /archived/);
  const unknown = await rejects(addFeatureTag(db, carol, "checkout", { type: "ghost", value: "x1" }), ValidationError);
  assert.equal(
    unknown.details.map((d) => d.path),
    ["type"],
  );
  await rejects(addFeatureTag(db, carol, "checkout", { value: "x1" }), ValidationError);
  await rejects(addFeatureTag(db, carol, "checkout", { type: "team", value: " " }), ValidationError);
  assert.equal(await stored(), before);
  // Reading an archived flag's tags is fine; removing them is refused like adding.
  assert.equal(await listFeatureTags(db, "legacy"), []);
  await rejects(removeFeatureTag(db, carol, "legacy", { type: "team", value: "x1" }), ConflictError);
  await rejects(listFeatureTags(db, "no-such-flag"), NotFoundError);
});

test("updateFeatureTags adds, then removes, in one transaction; a failure anywhere stores nothing", async () => {
  const [a, b, c] = [unique("a"), unique("b"), unique("c")];
  await updateFeatureTags(db, null, "search", { addedTags: [{ type: "simple", value: a }], removedTags: [] });
  const before = await stored();
  const tags = await updateFeatureTags(db, carol, "search", {
    addedTags: [
      { type: "team", value: b },
      { type: "simple", value: c },
      { type: "team", value: b },
    ],
    removedTags: [
      { type: "simple", value: a },
      { type: "simple", value: c },
      { type: "simple", value: "never-there" },
    ],
  });
  // c was added, then removed: a tag in both lists ends up removed, as in Unleash (the tag itself stays).
  assert.equal(tags, [{ type: "team", value: b, color: "#00ff00" }]);
  assert.equal(
    (await eventsAfter(before.lastEvent)).map((e) => [e.type, e.feature_name, e.data ?? e.pre_data]),
    // Tags go by type, then value, whatever the body's order.
    [
      ["tag-created", null, { type: "simple", value: c }],
      ["tag-created", null, { type: "team", value: b }],
      ["feature-tagged", "search", { type: "simple", value: c }],
      ["feature-tagged", "search", { type: "team", value: b }],
      ["feature-untagged", "search", { type: "simple", value: a }],
      ["feature-untagged", "search", { type: "simple", value: c }],
    ],
  );

  const after = await stored();
  const error = await rejects(
    updateFeatureTags(db, carol, "search", {
      addedTags: [
        { type: "simple", value: unique("d") },
        { type: "ghost", value: "never" },
      ],
      removedTags: [{ type: "team", value: b }],
    }),
    ValidationError,
  );
  assert.equal(
    error.details.map((d) => d.path),
    ["addedTags.1.type"],
  );
  await rejects(updateFeatureTags(db, carol, "search", { addedTags: [] }), ValidationError);
  await rejects(
    updateFeatureTags(db, carol, "search", { addedTags: Array(101).fill({ type: "simple", value: "many" }), removedTags: [] }),
    ValidationError,
  );
  assert.equal(await stored(), after);
});

test("removeFeatureTag: a tag the flag does not carry changes nothing and is no error", async () => {
  const value = unique("gone");
  await addFeatureTag(db, null, "checkout", { type: "simple", value });
  const before = await stored();
  await removeFeatureTag(db, carol, "checkout", { type: "simple", value });
  assert.equal(await eventsAfter(before.lastEvent), [
    {
      type: "feature-untagged",
      project: "default",
      feature_name: "checkout",
      data: null,
      pre_data: { type: "simple", value },
      created_by: "carol",
    },
  ]);
  const after = await stored();
  await removeFeatureTag(db, carol, "checkout", { type: "simple", value });
  await removeFeatureTag(db, carol, "checkout", { type: "no-such-type", value: "x" });
  assert.equal(await stored(), after);
  await rejects(removeFeatureTag(db, carol, "no-such-flag", { type: "simple", value }), NotFoundError);
});

test("updateProjectFeatureTags: every flag of the project or none; foreign, missing or archived flags refuse the whole request", async () => {
  const value = unique("bulk");
  const before = await stored();
  await updateProjectFeatureTags(db, carol, "default", {
    features: ["checkout", "search", "checkout"],
    tags: { addedTags: [{ type: "simple", value }], removedTags: [] },
  });
  for (const name of ["checkout", "search"])
    assert.ok(
      (await listFeatureTags(db, name)).some((t) => t.value === value),
      name,
    );
  assert.equal(
    (await eventsAfter(before.lastEvent)).map((e) => [e.type, e.project, e.feature_name]),
    [
      ["tag-created", null, null],
      ["feature-tagged", "default", "checkout"],
      ["feature-tagged", "default", "search"],
    ],
  );

  const after = await stored();
  const changes = { addedTags: [{ type: "simple", value: unique("never") }], removedTags: [{ type: "simple", value }] };
  const foreign = await rejects(
    updateProjectFeatureTags(db, carol, "default", { features: ["checkout", "cart"], tags: changes }),
    ValidationError,
  );
  assert.equal(
    foreign.details.map((d) => d.path),
    ["features.1"],
  );
  await rejects(updateProjectFeatureTags(db, carol, "default", { features: ["search", "no-such-flag"], tags: changes }), ValidationError);
  await rejects(updateProjectFeatureTags(db, carol, "default", { features: ["search", "legacy"], tags: changes }), ConflictError);
  await rejects(updateProjectFeatureTags(db, carol, "no-such-project", { features: [], tags: changes }), NotFoundError);
  await rejects(updateProjectFeatureTags(db, carol, "default", { features: [""], tags: changes }), ValidationError);
  const unknownType = {
    addedTags: [
      { type: "simple", value: unique("x") },
      { type: "ghost", value: "y1" },
    ],
    removedTags: [],
  };
  const ghost = await rejects(updateProjectFeatureTags(db, carol, "default", { features: ["search"], tags: unknownType }), ValidationError);
  assert.equal(
    ghost.details.map((d) => d.path),
    ["tags.addedTags.1.type"],
  );
  assert.equal(await stored(), after);
});

test("deleteTagType takes its tags off every flag; an unknown type is a 404", async () => {
  await createTagType(db, null, { name: "doomed", icon: "x" });
  await addFeatureTag(db, null, "checkout", { type: "doomed", value: "soon" });
  const before = await stored();
  await deleteTagType(db, carol, "doomed");
  assert.not.ok((await listFeatureTags(db, "checkout")).some((t) => t.type === "doomed"));
  assert.not.ok((await listTags(db)).some((t) => t.type === "doomed"));
  assert.equal(await eventsAfter(before.lastEvent), [
    {
      type: "tag-type-deleted",
      project: null,
      feature_name: null,
      data: null,
      pre_data: { name: "doomed", description: null, icon: "x", color: null },
      created_by: "carol",
    },
  ]);
  await rejects(deleteTagType(db, carol, "doomed"), NotFoundError);
  await rejects(getTagType(db, "doomed"), NotFoundError);
});

test("concurrent writes of one new tag make it once, and a type deleted under a tagging is a 400, never a crash", async () => {
  const value = unique("race");
  const before = await stored();
  await Promise.all(["checkout", "search", "checkout", "search"].map((name) => addFeatureTag(db, carol, name, { type: "simple", value })));
  const events = await eventsAfter(before.lastEvent);
  assert.is(events.filter((e) => e.type === "tag-created").length, 1);
  assert.is(events.filter((e) => e.type === "feature-tagged").length, 2);

  for (let round = 0; round < 5; round++) {
    const type = unique("racing-type");
    await createTagType(db, null, { name: type });
    const results = await Promise.allSettled([
      addFeatureTag(db, carol, "search", { type, value: "v1" }),
      deleteTagType(db, carol, type),
      addFeatureTag(db, carol, "checkout", { type, value: "v1" }),
    ]);
    for (const result of results) {
      if (result.status === "rejected") assert.instance(result.reason, ValidationError, String(result.reason));
    }
    assert.not.ok((await listTagTypes(db)).some((t) => t.name === type));
    const left = await db.selectFrom("feature_tags").select("feature_name").where("tag_type", "=", type).execute();
    assert.equal(left, []);
  }
});

test("concurrent bulk writes of the same new tags, in opposite orders, all succeed and make each tag once", async () => {
  for (let round = 0; round < 5; round++) {
    const before = await stored();
    const tags = [
      { type: "simple", value: unique("x") },
      { type: "team", value: unique("y") },
    ];
    await Promise.all([
      updateProjectFeatureTags(db, carol, "default", { features: ["checkout", "search"], tags: { addedTags: tags, removedTags: [] } }),
      updateProjectFeatureTags(db, carol, "default", {
        features: ["search", "checkout"],
        tags: { addedTags: [...tags].reverse(), removedTags: [] },
      }),
    ]);
    for (const name of ["checkout", "search"]) {
      const values = (await listFeatureTags(db, name)).map((t) => t.value);
      assert.ok(
        tags.every((t) => values.includes(t.value)),
        name,
      );
    }
    const events = await eventsAfter(before.lastEvent);
    assert.is(events.filter((e) => e.type === "tag-created").length, 2);
    assert.is(events.filter((e) => e.type === "feature-tagged").length, 4);
  }
});

test("a tag or a tag type deleted while its flags are tagged and seen by SDKs: every write succeeds, and the flags' tag keys follow", async () => {
  // The deletion cascades to the flags' rows of feature_tags, whose trigger writes the flags' tag
  // keys (docs/search.md#tag-keys): it locks the flags first, as their other writers do.
  for (let round = 0; round < 5; round++) {
    const type = unique("gone-type");
    await createTagType(db, null, { name: type });
    const doomed = { type: "simple", value: unique("gone") };
    await updateProjectFeatureTags(db, carol, "default", {
      features: ["checkout", "search"],
      tags: { addedTags: [doomed, { type, value: "v1" }], removedTags: [] },
    });
    const kept = { type: "team", value: unique("kept") };
    const seenAt = new Date(Date.now() + round * 1000);
    await Promise.all([
      deleteTag(db, carol, doomed),
      // An SDK's report of both flags, as the flush stores it (it locks the flags in name order).
      storeClientMetrics(
        db,
        ["search", "checkout"].map((featureName) => ({
          featureName,
          environment: "development",
          appName: "tags-test",
          hour: new Date(Math.floor(seenAt.getTime() / 3_600_000) * 3_600_000),
          yes: 1,
          no: 0,
          variants: new Map(),
          seenAt,
        })),
      ),
      removeFeatureTag(db, carol, "search", doomed),
      deleteTagType(db, carol, type),
      removeFeatureTag(db, carol, "checkout", { type, value: "v1" }),
      updateProjectFeatureTags(db, carol, "default", { features: ["search", "checkout"], tags: { addedTags: [kept], removedTags: [] } }),
    ]);
    const keys = await db
      .selectFrom("features")
      .select(["name", "tag_keys"])
      .where("name", "in", ["checkout", "search"])
      .orderBy("name")
      .execute();
    for (const { name, tag_keys } of keys) {
      const tags = (await listFeatureTags(db, name)).map((t) => `${t.type}:${t.value}`).sort();
      assert.equal(tag_keys, tags, name);
      assert.ok(
        tags.includes(`team:${kept.value}`) && !tags.includes(`simple:${doomed.value}`) && !tags.some((t) => t.startsWith(`${type}:`)),
        name,
      );
    }
  }
});

test.after(() => testDb.close());

test.run();
