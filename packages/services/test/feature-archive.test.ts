import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addChange,
  addFeatureDependency,
  addFeatureStrategy,
  archiveFeature,
  archiveFeatures,
  ConflictError,
  createFeature,
  createProject,
  createSegment,
  deleteArchivedFeature,
  deleteArchivedFeatures,
  deleteFeatureDependency,
  deleteFeatureStrategy,
  enableEnvironmentInProject,
  listFeatures,
  moveChangeRequest,
  NameExistsError,
  NoAccessError,
  NotFoundError,
  replaceFeatureEnvironmentVariants,
  reviveFeature,
  reviveFeatures,
  RootRole,
  setChangeRequestConfig,
  setFeatureEnvironmentEnabled,
  updateFeature,
  updateFeatureStrategy,
  ValidationError,
  validateArchiveFeatures,
} from "../src/index.ts";
import { loadClientFeatures } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";
import { userPrincipals } from "./support/user-principals.ts";

const { kysely: db, write, close } = await openTestDb();
const user = userPrincipals(db, "archive");
const admin = await user(RootRole.Admin);
const editor = await user(RootRole.Editor);

// "default" writes freely; "gated" has change requests on in production.
await write(async (trx) => {
  await createProject(trx, null, { id: "other", name: "Other" });
  await createProject(trx, null, { id: "gated", name: "Gated" });
  await enableEnvironmentInProject(trx, null, { projectId: "gated", environment: "production" });
  await setChangeRequestConfig(trx, null, "gated", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
});

let count = 0;
/** A flag of `project`, on in development with a strategy on a segment and a variant. */
async function newFlag(project = "default"): Promise<string> {
  const name = `archive-flag-${++count}`;
  await createFeature(db, admin, project, { name });
  if (project === "default") {
    const segment = await createSegment(db, admin, { name: `seg-${name}`, constraints: [] });
    const path = { projectId: project, featureName: name, environment: "development" };
    await addFeatureStrategy(db, admin, path, { name: "default", segments: [segment.id] });
    await replaceFeatureEnvironmentVariants(db, admin, path, [{ name: "blue", weightType: "variable", stickiness: "default" }]);
    await setFeatureEnvironmentEnabled(db, admin, path, true);
  }
  return name;
}

const archivedAt = async (name: string) =>
  (await db.selectFrom("features").select("archived_at").where("name", "=", name).executeTakeFirst())?.archived_at;
const eventsOf = (name: string, type: string) =>
  db.selectFrom("events").selectAll().where("feature_name", "=", name).where("type", "=", type).orderBy("id").execute();
const served = async (name: string) => {
  const set = await loadClientFeatures(db, "development", ["*"]);
  return set.features.find((f) => f.name === name);
};
const dev = (featureName: string) => ({ projectId: "default", featureName, environment: "development" });

test("archiving keeps the flag and its configuration, serves it to no SDK and leaves the project's list", async () => {
  const name = await newFlag();
  const before = await served(name);
  assert.ok(before?.enabled);
  const segmentsBefore = (await loadClientFeatures(db, "development", ["*"])).segments.length;

  await archiveFeature(db, editor, { projectId: "default", featureName: name });

  assert.instance(await archivedAt(name), Date);
  assert.is(await served(name), undefined);
  // The segment its strategy used is served no more either: no served strategy uses it.
  assert.is((await loadClientFeatures(db, "development", ["*"])).segments.length, segmentsBefore - 1);
  assert.not.ok((await listFeatures(db, "default")).some((f) => f.name === name));
  const strategies = await db.selectFrom("feature_strategies").select("id").where("feature_name", "=", name).execute();
  assert.is(strategies.length, 1);
  const env = await db.selectFrom("feature_environments").selectAll().where("feature_name", "=", name).executeTakeFirstOrThrow();
  assert.equal([env.enabled, (env.variants as { name: string }[]).map((v) => v.name)], [true, ["blue"]]);
  const [event] = await eventsOf(name, "feature-archived");
  assert.equal([event?.project, event?.created_by], ["default", "archive-user-2"]);

  // Again: nothing changes, no second event.
  await archiveFeature(db, editor, { projectId: "default", featureName: name });
  assert.is((await eventsOf(name, "feature-archived")).length, 1);
});

test("archiveFeature: 404 for a flag not in the project, or no project", async () => {
  const name = await newFlag();
  await rejects(archiveFeature(db, admin, { projectId: "other", featureName: name }), NotFoundError);
  await rejects(archiveFeature(db, admin, { projectId: "default", featureName: "no-such-flag" }), NotFoundError);
  const error = await rejects(archiveFeature(db, admin, { projectId: "nope", featureName: name }), NotFoundError);
  assert.match(error.message, /project "nope"/);
  assert.is(await archivedAt(name), null);
});

test("an archived flag takes no writes, each refused with the same reason", async () => {
  const name = await newFlag();
  const parent = await newFlag();
  const [strategy] = await db.selectFrom("feature_strategies").select("id").where("feature_name", "=", name).execute();
  await addFeatureDependency(db, admin, { projectId: "default", featureName: name }, { feature: parent });
  await archiveFeature(db, admin, { projectId: "default", featureName: name });
  const eventsBefore = await db
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();

  const writes: [string, () => Promise<unknown>][] = [
    ["off", () => setFeatureEnvironmentEnabled(db, admin, dev(name), false)],
    ["variants", () => replaceFeatureEnvironmentVariants(db, admin, dev(name), [])],
    ["add strategy", () => addFeatureStrategy(db, admin, dev(name), { name: "default" })],
    ["update strategy", () => updateFeatureStrategy(db, admin, dev(name), String(strategy?.id), { name: "default" })],
    ["delete strategy", () => deleteFeatureStrategy(db, admin, dev(name), String(strategy?.id))],
    ["remove dependency", () => deleteFeatureDependency(db, admin, { projectId: "default", featureName: name }, parent)],
    ["add dependency", () => addFeatureDependency(db, admin, { projectId: "default", featureName: name }, { feature: parent })],
    ["PUT", () => updateFeature(db, admin, { projectId: "default", featureName: name }, { description: "x" })],
  ];
  for (const [what, write] of writes) {
    const error = await rejects(write(), ValidationError);
    assert.match(error.message, /^Cannot perform this operation on archived features/, what);
  }
  // Depending on an archived flag as a parent.
  const child = await newFlag();
  const error = await rejects(
    addFeatureDependency(db, admin, { projectId: "default", featureName: child }, { feature: name }),
    ValidationError,
  );
  assert.match(error.message, /is archived/);
  const eventsAfter = await db
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  // Only the new child's own creation events were added.
  const childEvents = await db.selectFrom("events").select("id").where("feature_name", "=", child).execute();
  assert.is(Number(eventsAfter.n), Number(eventsBefore.n) + childEvents.length + 1); // +1: its segment
});

test("an archived name cannot be reused: 409 saying it is archived", async () => {
  const name = await newFlag();
  await archiveFeature(db, admin, { projectId: "default", featureName: name });
  const error = await rejects(createFeature(db, admin, "other", { name }), NameExistsError);
  assert.match(error.message, /^An archived flag with that name already exists/);
  const live = await newFlag();
  assert.not.match((await rejects(createFeature(db, admin, "default", { name: live }), NameExistsError)).message, /archived/);
});

test("a parent is archived only with (or after) its live children; validate says which", async () => {
  const parent = await newFlag();
  const child = await newFlag();
  await addFeatureDependency(db, admin, { projectId: "default", featureName: child }, { feature: parent });

  assert.equal(await validateArchiveFeatures(db, "default", [parent]), {
    parentsWithChildFeatures: [parent],
    hasDeletedDependencies: false,
  });
  assert.equal(await validateArchiveFeatures(db, "default", [parent, child]), {
    parentsWithChildFeatures: [],
    hasDeletedDependencies: false,
  });
  await rejects(validateArchiveFeatures(db, "nope", [parent]), NotFoundError);

  const error = await rejects(archiveFeature(db, admin, { projectId: "default", featureName: parent }), ConflictError);
  assert.match(error.message, new RegExp(`"${child}" depends on "${parent}"`));
  await rejects(archiveFeatures(db, admin, "default", [parent]), ConflictError);
  assert.is(await archivedAt(parent), null);

  await archiveFeatures(db, admin, "default", [parent, child]);
  assert.instance(await archivedAt(parent), Date);
  assert.instance(await archivedAt(child), Date);
  // The dependency is kept.
  assert.is((await db.selectFrom("feature_dependencies").select("child").where("child", "=", child).execute()).length, 1);

  // A child comes back only with its parent.
  const refused = await rejects(reviveFeatures(db, admin, "default", [child]), ConflictError);
  assert.match(refused.message, /revive the parent first/);
  await rejects(reviveFeature(db, admin, child), ConflictError);
  await reviveFeatures(db, admin, "default", [child, parent]);
  assert.is(await archivedAt(child), null);
  assert.is(await archivedAt(parent), null);

  // An archived child does not hold its parent back.
  await archiveFeature(db, admin, { projectId: "default", featureName: child });
  await archiveFeature(db, admin, { projectId: "default", featureName: parent });
  assert.instance(await archivedAt(parent), Date);
});

test("a flag that an open change request changes is not archived; proposing a change to an archived flag is refused", async () => {
  const author = await user(RootRole.Editor);
  const name = await newFlag("gated");
  const { id } = await addChange(db, author, {
    projectId: "gated",
    environment: "production",
    feature: name,
    action: "updateEnabled",
    payload: { enabled: true },
  });
  const error = await rejects(archiveFeature(db, admin, { projectId: "gated", featureName: name }), ConflictError);
  assert.match(error.message, new RegExp(`change request ${id} \\(Draft\\)`));
  assert.is(await archivedAt(name), null);

  await moveChangeRequest(db, author, "gated", id, { state: "Cancelled" });
  await archiveFeature(db, admin, { projectId: "gated", featureName: name });
  assert.instance(await archivedAt(name), Date);

  const refused = await rejects(
    addChange(db, author, {
      projectId: "gated",
      environment: "production",
      feature: name,
      action: "updateEnabled",
      payload: { enabled: true },
    }),
    ValidationError,
  );
  assert.match(refused.message, /archived/);
});

test("applying a change request that changes an archived flag fails and applies nothing", async () => {
  const author = await user(RootRole.Editor);
  const approver = await user(RootRole.Editor);
  const name = await newFlag("gated");
  const { id } = await addChange(db, author, {
    projectId: "gated",
    environment: "production",
    feature: name,
    action: "updateEnabled",
    payload: { enabled: true },
  });
  await moveChangeRequest(db, author, "gated", id, { state: "In review" });
  await moveChangeRequest(db, approver, "gated", id, { state: "Approved" });
  // Archived behind the rule's back (an older database, or an operator's SQL): the apply still refuses.
  await db.updateTable("features").set({ archived_at: sql<Date>`now()` }).where("name", "=", name).execute();
  const error = await rejects(moveChangeRequest(db, approver, "gated", id, { state: "Applied" }), ValidationError);
  assert.match(error.message, /can no longer be applied: Cannot perform this operation on archived features/);
  const request = await db.selectFrom("change_requests").select("state").where("id", "=", id).executeTakeFirstOrThrow();
  assert.is(request.state, "Approved");
});

test("an archiveFeature change, approved and applied, archives the flag; the request applying it is not in its way", async () => {
  const author = await user(RootRole.Editor);
  const approver = await user(RootRole.Editor);
  const name = await newFlag("gated");
  const propose = (action: "archiveFeature" | "updateEnabled", payload: unknown) =>
    addChange(db, author, { projectId: "gated", environment: "production", feature: name, action, payload });
  await propose("updateEnabled", { enabled: true });
  const { id } = await propose("archiveFeature", {});
  await moveChangeRequest(db, author, "gated", id, { state: "In review" });
  await moveChangeRequest(db, approver, "gated", id, { state: "Approved" });
  await moveChangeRequest(db, approver, "gated", id, { state: "Applied" });
  assert.instance(await archivedAt(name), Date);
  assert.is((await eventsOf(name, "feature-archived")).length, 1);

  // Archiving first, then changing the flag: the whole request fails.
  const other = await newFlag("gated");
  const second = await addChange(db, author, {
    projectId: "gated",
    environment: "production",
    feature: other,
    action: "archiveFeature",
    payload: {},
  });
  await addChange(db, author, {
    projectId: "gated",
    environment: "production",
    feature: other,
    action: "updateEnabled",
    payload: { enabled: true },
  });
  await moveChangeRequest(db, author, "gated", second.id, { state: "In review" });
  await moveChangeRequest(db, approver, "gated", second.id, { state: "Approved" });
  await rejects(moveChangeRequest(db, approver, "gated", second.id, { state: "Applied" }), ValidationError);
  assert.is(await archivedAt(other), null);
});

test("archiving is a direct write: where change requests are on, only those who may skip them archive", async () => {
  const name = await newFlag("gated");
  const error = await rejects(archiveFeature(db, editor, { projectId: "gated", featureName: name }), NoAccessError);
  assert.match(error.message, /SKIP_CHANGE_REQUEST/);
  await rejects(archiveFeatures(db, editor, "gated", [name]), NoAccessError);
  assert.is(await archivedAt(name), null);
  await archiveFeatures(db, admin, "gated", [name]);
  // Reviving and deleting are not gated, as in Unleash.
  await reviveFeatures(db, editor, "gated", [name]);
  await archiveFeatures(db, admin, "gated", [name]);
  await deleteArchivedFeatures(db, editor, "gated", [name]);
  assert.is(await archivedAt(name), undefined);
});

test("bulk archive: all or nothing; unknown and archived names ignored; another project's flag a 400", async () => {
  const [a, b, parent, child] = [await newFlag(), await newFlag(), await newFlag(), await newFlag()];
  await addFeatureDependency(db, admin, { projectId: "default", featureName: child }, { feature: parent });
  await rejects(archiveFeatures(db, admin, "default", [a, b, parent]), ConflictError);
  for (const name of [a, b, parent]) assert.is(await archivedAt(name), null);
  assert.is((await eventsOf(a, "feature-archived")).length, 0);

  const elsewhere = await newFlag("other");
  const error = await rejects(archiveFeatures(db, admin, "default", [a, elsewhere]), ValidationError);
  assert.equal(error.details, [{ path: "features.1", message: `"${elsewhere}" is in the project "other"` }]);
  assert.is(await archivedAt(a), null);
  await rejects(archiveFeatures(db, admin, "nope", [a]), NotFoundError);

  await archiveFeature(db, admin, { projectId: "default", featureName: b });
  await archiveFeatures(db, admin, "default", [a, b, "no-such-flag"]);
  assert.instance(await archivedAt(a), Date);
  assert.is((await eventsOf(b, "feature-archived")).length, 1);
  assert.is((await eventsOf(a, "feature-archived")).length, 1);
});

test("bulk archive, revive and delete of 1,000 flags, each in one call", async () => {
  const names = Array.from({ length: 1000 }, (_, i) => `archive-bulk-${i}`);
  await db
    .insertInto("features")
    .values(names.map((name) => ({ name, project_id: "default" })))
    .execute();
  await archiveFeatures(db, admin, "default", names);
  const archived = await db
    .selectFrom("features")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("name", "like", "archive-bulk-%")
    .where("archived_at", "is not", null)
    .executeTakeFirstOrThrow();
  assert.is(Number(archived.n), 1000);
  const events = await db
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("type", "=", "feature-archived")
    .where("feature_name", "like", "archive-bulk-%")
    .executeTakeFirstOrThrow();
  assert.is(Number(events.n), 1000);
  await reviveFeatures(db, admin, "default", names);
  await archiveFeatures(db, admin, "default", names);
  await deleteArchivedFeatures(db, admin, "default", names);
  assert.is((await db.selectFrom("features").select("name").where("name", "like", "archive-bulk-%").execute()).length, 0);
});

test("revive: off in every environment, configuration as it was, served again, one event", async () => {
  const name = await newFlag();
  await archiveFeature(db, admin, { projectId: "default", featureName: name });
  await reviveFeature(db, admin, name);
  assert.is(await archivedAt(name), null);
  const feature = await served(name);
  assert.equal([feature?.enabled, feature?.strategies.length, feature?.variants.map((v) => v.name)], [false, 1, ["blue"]]);
  assert.ok((await listFeatures(db, "default")).some((f) => f.name === name));
  assert.equal(
    (await eventsOf(name, "feature-revived")).map((e) => e.project),
    ["default"],
  );

  const error = await rejects(reviveFeature(db, admin, name), ValidationError);
  assert.match(error.message, /is not archived/);
  await rejects(reviveFeature(db, admin, "no-such-flag"), NotFoundError);
  // In bulk, a live flag is ignored (and not switched off).
  await setFeatureEnvironmentEnabled(db, admin, dev(name), true);
  await reviveFeatures(db, admin, "default", [name, "no-such-flag"]);
  assert.ok((await served(name))?.enabled);
  await rejects(reviveFeatures(db, admin, "nope", [name]), NotFoundError);
});

test("delete for good: archived flags only; their events stay; a parent only with its archived children", async () => {
  const name = await newFlag();
  await db.insertInto("tags").values({ type: "simple", value: "archive-tag" }).execute();
  await db.insertInto("feature_tags").values({ feature_name: name, tag_type: "simple", tag_value: "archive-tag" }).execute();
  // Not archived: refused alone, ignored in bulk.
  assert.match((await rejects(deleteArchivedFeature(db, admin, name), ValidationError)).message, /is not archived/);
  await deleteArchivedFeatures(db, admin, "default", [name]);
  assert.is(await archivedAt(name), null);

  await archiveFeature(db, admin, { projectId: "default", featureName: name });
  await deleteArchivedFeature(db, admin, name);
  assert.is(await archivedAt(name), undefined);
  assert.is((await db.selectFrom("feature_strategies").select("id").where("feature_name", "=", name).execute()).length, 0);
  const [deleted] = await eventsOf(name, "feature-deleted");
  assert.equal((deleted?.pre_data as { tags: unknown } | undefined)?.tags, [{ type: "simple", value: "archive-tag" }]);
  assert.is((await eventsOf(name, "feature-created")).length, 1);
  assert.is((await eventsOf(name, "feature-archived")).length, 1);
  // Its name is free again.
  await createFeature(db, admin, "default", { name });
  await rejects(deleteArchivedFeature(db, admin, "no-such-flag"), NotFoundError);

  const [parent, child] = [await newFlag(), await newFlag()];
  await addFeatureDependency(db, admin, { projectId: "default", featureName: child }, { feature: parent });
  await archiveFeatures(db, admin, "default", [parent, child]);
  await rejects(deleteArchivedFeature(db, admin, parent), ConflictError);
  await rejects(deleteArchivedFeatures(db, admin, "default", [parent]), ConflictError);
  assert.instance(await archivedAt(parent), Date);
  await deleteArchivedFeatures(db, admin, "default", [parent, child]);
  assert.is(await archivedAt(parent), undefined);
  assert.is(await archivedAt(child), undefined);
});

test.after(() => close());

test.run();
