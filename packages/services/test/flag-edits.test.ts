import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addChange,
  addFeatureStrategy,
  bulkSetFeaturesEnabled,
  cloneFeature,
  createFeature,
  featureWithEnvironments,
  listFeatureStrategies,
  moveChangeRequest,
  NameExistsError,
  NoAccessError,
  NotFoundError,
  patchFeatureStrategy,
  RootRole,
  setChangeRequestConfig,
  setStrategySortOrder,
  updateFeatureStrategy,
  ValidationError,
  validateFeatureName,
} from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";
import { userPrincipals } from "./support/user-principals.ts";

// The rules of a flag's daily edits (docs/flag-model.md#daily-edits), where they live.
const { kysely: db, close } = await openTestDb();
const user = userPrincipals(db, "edits");
const [admin, editor, approver] = [await user(RootRole.Admin), await user(RootRole.Editor), await user(RootRole.Editor)];

let count = 0;
async function newFeature(): Promise<string> {
  return (await createFeature(db, admin, "default", { name: `edits-${++count}` })).name;
}
const dev = (featureName: string) => ({ projectId: "default", featureName, environment: "development" });
const archive = (name: string) => db.updateTable("features").set({ archived_at: new Date() }).where("name", "=", name).execute();
const enabledIn = async (name: string, environment = "development") =>
  (await featureWithEnvironments(db, { projectId: "default", featureName: name })).environments.find((e) => e.name === environment)
    ?.enabled;
const lastEventId = async () =>
  (
    await db
      .selectFrom("events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst()
  )?.id ?? 0;

test("bulk: answers the features whose state changed, each listed once; all or none", async () => {
  const [a, b] = [await newFeature(), await newFeature()];
  const env = { projectId: "default", environment: "development" };
  assert.equal(await bulkSetFeaturesEnabled(db, editor, env, { features: [b, a, b] }, true), [b, a]);
  assert.equal(await bulkSetFeaturesEnabled(db, editor, env, { features: [a, b] }, true), []);
  assert.equal(await bulkSetFeaturesEnabled(db, editor, env, { features: [a] }, false), [a]);

  const before = await lastEventId();
  await rejects(bulkSetFeaturesEnabled(db, editor, env, { features: [a, "ghost"] }, true), NotFoundError);
  await archive(b);
  await rejects(bulkSetFeaturesEnabled(db, editor, env, { features: [a, b] }, true), ValidationError);
  assert.is(await enabledIn(a), false, "a refused bulk write switches nothing");
  assert.is(await lastEventId(), before);
});

test("archived flags: patch and sort order refuse them; validate and clone count their names as taken", async () => {
  const f = await newFeature();
  const strategy = await addFeatureStrategy(db, editor, dev(f), { name: "default" });
  await archive(f);
  const refusal = await rejects(patchFeatureStrategy(db, editor, dev(f), strategy.id, []), ValidationError);
  assert.match(refusal.message, "Cannot perform this operation on archived features");
  await rejects(setStrategySortOrder(db, editor, dev(f), [{ id: strategy.id, sortOrder: 1 }]), ValidationError);
  await rejects(validateFeatureName(db, { name: f }), NameExistsError);
  await rejects(cloneFeature(db, editor, { projectId: "default", featureName: await newFeature() }, { name: f }), NameExistsError);
  await rejects(cloneFeature(db, editor, { projectId: "default", featureName: f }, { name: `${f}-copy` }), NotFoundError);
  await validateFeatureName(db, { name: `${f}-free`, projectId: "anything" });
});

test("sort order: an id of another feature or environment is refused and nothing moves", async () => {
  const [f, other] = [await newFeature(), await newFeature()];
  const mine = await addFeatureStrategy(db, editor, dev(f), { name: "default" });
  const theirs = await addFeatureStrategy(db, editor, dev(other), { name: "default" });
  const inProduction = await addFeatureStrategy(db, editor, { ...dev(f), environment: "production" }, { name: "default" });
  for (const id of [theirs.id, inProduction.id]) {
    await rejects(
      setStrategySortOrder(db, editor, dev(f), [
        { id: mine.id, sortOrder: 5 },
        { id, sortOrder: 0 },
      ]),
      ValidationError,
    );
  }
  assert.equal(
    (await listFeatureStrategies(db, dev(f))).map((s) => s.sortOrder),
    [0],
  );
});

test("clone is gated like a dependency: an Editor is refused where change requests are on, an Admin may", async () => {
  const source = await newFeature();
  await addFeatureStrategy(db, admin, { ...dev(source), environment: "production" }, { name: "default" });
  await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
  try {
    await rejects(cloneFeature(db, editor, { projectId: "default", featureName: source }, { name: `${source}-by-editor` }), NoAccessError);
    const clone = await cloneFeature(db, admin, { projectId: "default", featureName: source }, { name: `${source}-by-admin` });
    assert.equal(
      (await listFeatureStrategies(db, { ...dev(clone.name), environment: "production" })).map((s) => s.name),
      ["default"],
    );
  } finally {
    await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: false, requiredApprovals: 1 });
  }
});

test("a patchStrategy change is applied to the strategy as it is then: its test operation guards against a change made meanwhile", async () => {
  const f = await newFeature();
  const path = { ...dev(f), environment: "production" };
  const strategy = await addFeatureStrategy(db, admin, path, { name: "userWithId", parameters: { userIds: "alice" } });
  await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
  try {
    const patch = [
      { op: "test", path: "/parameters/userIds", value: "alice" },
      { op: "replace", path: "/parameters/userIds", value: "alice,bob" },
    ];
    await rejects(patchFeatureStrategy(db, editor, path, strategy.id, patch as never), NoAccessError);
    const proposal = await addChange(db, editor, {
      projectId: "default",
      environment: "production",
      feature: f,
      action: "patchStrategy",
      payload: { id: strategy.id, patch },
    });
    await moveChangeRequest(db, editor, "default", proposal.id, { state: "In review" });
    await moveChangeRequest(db, approver, "default", proposal.id, { state: "Approved" });
    // Meanwhile an Admin changes the strategy directly.
    await updateFeatureStrategy(db, admin, path, strategy.id, { name: "userWithId", parameters: { userIds: "carol" } });
    const failure = await rejects(moveChangeRequest(db, approver, "default", proposal.id, { state: "Applied" }), ValidationError);
    assert.match(failure.message, "patchStrategy");
    assert.equal(
      (await listFeatureStrategies(db, path)).map((s) => s.parameters),
      [{ userIds: "carol" }],
    );
  } finally {
    await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: false, requiredApprovals: 1 });
  }
});

test.after(() => close());
test.run();
