import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createEnvironment,
  createFeature,
  createProject,
  enableEnvironmentInProject,
  featureWithEnvironments,
  listFeatures,
  NameExistsError,
  NotFoundError,
  type Principal,
  replaceFeatureEnvironmentVariants,
  ValidationError,
} from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const bob: Principal = { kind: "user", userId: 9, username: "bob", rootRole: 2, via: "session" };

const featureEvents = () => db.selectFrom("events").selectAll().where("type", "=", "feature-created").orderBy("id").execute();

await write(async (trx) => {
  await createProject(trx, null, { id: "other", name: "Other" });
  await createEnvironment(trx, null, { name: "staging", type: "test", sortOrder: 150 });
});

test("createFeature stores the feature with defaults and its event", async () => {
  const feature = await createFeature(db, bob, "default", { name: "checkout", description: "New checkout" });
  assert.equal(
    { ...feature, createdAt: null },
    {
      name: "checkout",
      project: "default",
      description: "New checkout",
      type: "release",
      impressionData: false,
      createdAt: null,
      stale: false,
      archived: false,
      archivedAt: null,
      lastSeenAt: null,
    },
  );
  const kill = await createFeature(db, bob, "default", { name: "kill-all", type: "kill-switch" });
  assert.equal([kill.type, kill.description], ["kill-switch", null]);
  const [event] = await featureEvents();
  assert.equal(
    [event?.created_by, event?.project, event?.feature_name, event?.data],
    ["bob", "default", "checkout", JSON.parse(JSON.stringify(feature))],
  );
});

test("createFeature: names are unique across projects (409), URL-safe (400), of a known type (400)", async () => {
  const before = (await featureEvents()).length;
  const taken = await rejects(createFeature(db, bob, "other", { name: "checkout" }), NameExistsError);
  assert.is(taken.message, 'A feature named "checkout" already exists.');
  for (const name of ["", ".", "..", "a b", "a/b", "ü", "x".repeat(101)]) {
    const error = await rejects(createFeature(db, bob, "default", { name }), ValidationError);
    assert.equal(
      error.details.map((d) => d.path),
      ["name"],
      JSON.stringify(name),
    );
  }
  const type = await rejects(createFeature(db, bob, "default", { name: "t", type: "banana" }), ValidationError);
  assert.equal(
    type.details.map((d) => d.path),
    ["type"],
  );
  assert.is((await featureEvents()).length, before);
});

test("createFeature in an unknown project is NotFoundError", async () => {
  const error = await rejects(createFeature(db, bob, "ghost", { name: "boo" }), NotFoundError);
  assert.is(error.message, 'The project "ghost" does not exist.');
});

test("listFeatures lists one project's features by name; an unknown project is NotFoundError", async () => {
  await createFeature(db, bob, "other", { name: "b-other" });
  await createFeature(db, bob, "default", { name: "a-first" });
  assert.equal(
    (await listFeatures(db, "default")).map((f) => f.name),
    ["a-first", "checkout", "kill-all"],
  );
  assert.equal(
    (await listFeatures(db, "other")).map((f) => f.name),
    ["b-other"],
  );
  await rejects(listFeatures(db, "ghost"), NotFoundError);
});

test("featureWithEnvironments shows each environment of the project, with its variants", async () => {
  await enableEnvironmentInProject(db, null, { projectId: "default", environment: "staging" });
  await replaceFeatureEnvironmentVariants(db, bob, { projectId: "default", featureName: "checkout", environment: "production" }, [
    { name: "blue" },
  ]);
  const feature = await featureWithEnvironments(db, { projectId: "default", featureName: "checkout" });
  assert.is(feature.name, "checkout");
  assert.equal(
    feature.environments.map((e) => [e.name, e.type, e.sortOrder, e.enabled, e.variants.map((v) => v.name)]),
    [
      ["development", "development", 100, false, []],
      ["staging", "test", 150, false, []],
      ["production", "production", 200, false, ["blue"]],
    ],
  );
  // An environment the project has not enabled is not listed.
  const other = await featureWithEnvironments(db, { projectId: "other", featureName: "b-other" });
  assert.equal(other.environments, []);
});

test("featureWithEnvironments: unknown project, or a feature of another project, is NotFoundError saying which", async () => {
  const project = await rejects(featureWithEnvironments(db, { projectId: "ghost", featureName: "checkout" }), NotFoundError);
  assert.is(project.message, 'The project "ghost" does not exist.');
  const elsewhere = await rejects(featureWithEnvironments(db, { projectId: "other", featureName: "checkout" }), NotFoundError);
  assert.is(elsewhere.message, 'The feature "checkout" does not exist in the project "other".');
  await rejects(featureWithEnvironments(db, { projectId: "default", featureName: "missing" }), NotFoundError);
});

test.after(() => testDb.close());

test.run();
