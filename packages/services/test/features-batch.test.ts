import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addFeatureDependency,
  addFeatureStrategy,
  addFeatureTag,
  createFeature,
  createProject,
  createSegment,
  createStrategyType,
  createTagType,
  enableEnvironmentInProject,
  exportFeatures,
  importFeatures,
  inSavepoint,
  NoAccessError,
  NotFoundError,
  type Principal,
  replaceFeatureEnvironmentVariants,
  setChangeRequestConfig,
  setFeatureEnvironmentEnabled,
  updateFeature,
  ValidationError,
  validateImport,
} from "../src/index.ts";
import { loadClientFeatures } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

// Two databases: flag names are unique across projects, so a round trip goes to another one.
const source = await openTestDb();
const target = await openTestDb();
const dev = (featureName: string) => ({ projectId: "default", featureName, environment: "development" });
const editor: Principal = { kind: "user", userId: 7, username: "erin", rootRole: 2, via: "session" };
const viewer: Principal = { kind: "user", userId: 8, username: "vic", rootRole: 3, via: "session" };
const adminToken: Principal = { kind: "admin-token", tokenId: 1, tokenName: "ci" };

/** What both databases share before a round trip: the segment and the custom strategy a document names. */
async function commonGround(db: Kysely<Database>) {
  await createSegment(db, null, { name: "beta-users", constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }] });
  await createStrategyType(db, null, { name: "by-team", parameters: [{ name: "team", type: "string", description: "", required: true }] });
}

await commonGround(source.kysely);
await commonGround(target.kysely);
await source.write(async (trx) => {
  await createTagType(trx, null, { name: "team", description: "Who owns it", color: "#00ff00" });
  for (const name of ["checkout", "search", "payments"]) await createFeature(trx, null, "default", { name, description: `${name} flag` });
  await updateFeature(trx, null, { projectId: "default", featureName: "search" }, { stale: true, impressionData: true });
  await addFeatureStrategy(trx, null, dev("checkout"), {
    name: "flexibleRollout",
    title: "half",
    parameters: { rollout: "50", stickiness: "userId", groupId: "checkout" },
    constraints: [{ contextName: "country", operator: "IN", values: ["NO", "SE"], caseInsensitive: true }],
    segments: [1],
    variants: [{ name: "blue", weight: 1000, stickiness: "default" }],
  });
  await addFeatureStrategy(trx, null, dev("checkout"), { name: "by-team", parameters: { team: "core" }, disabled: true });
  await addFeatureStrategy(trx, null, dev("search"), { name: "default" });
  await replaceFeatureEnvironmentVariants(trx, null, dev("search"), [
    { name: "a", weight: 500, stickiness: "default", payload: { type: "string", value: "A" } },
    { name: "b", weight: 500, stickiness: "default", overrides: [{ contextName: "userId", values: ["7"] }] },
  ]);
  for (const name of ["checkout", "search"]) await setFeatureEnvironmentEnabled(trx, null, dev(name), true);
  await addFeatureDependency(trx, null, { projectId: "default", featureName: "payments" }, { feature: "checkout", variants: ["blue"] });
  await addFeatureTag(trx, null, "checkout", { type: "team", value: "shop" });
  await addFeatureTag(trx, null, "search", { type: "simple", value: "findability" });
});

const served = async (db: Kysely<Database>) => {
  const { revisionId: _, ...rest } = await loadClientFeatures(db, "development", ["default"]);
  // Strategy ids are each database's own, as in Unleash's import.
  return { ...rest, features: rest.features.map((f) => ({ ...f, strategies: f.strategies.map(({ id: _, ...s }) => s) })) };
};
const eventCount = async (db: Kysely<Database>) =>
  Number(
    (
      await db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

test("an export lists the flags with their strategies, state, variants, tags, segments and dependencies in one environment", async () => {
  const doc = await exportFeatures(source.kysely, { environment: "development", project: "default" });
  assert.equal(
    doc.features.map((f) => [f.name, f.stale, f.impressionData]),
    [
      ["checkout", false, false],
      ["payments", false, false],
      ["search", true, true],
    ],
  );
  assert.equal(
    doc.featureStrategies.map((s) => [s.featureName, s.name, s.segments]),
    [
      ["checkout", "flexibleRollout", [1]],
      ["checkout", "by-team", []],
      ["search", "default", []],
    ],
  );
  assert.equal(doc.segments, [{ id: 1, name: "beta-users" }]);
  assert.equal(doc.tagTypes.map((t) => t.name).sort(), ["simple", "team"]);
  assert.equal(doc.dependencies, [{ feature: "payments", dependencies: [{ feature: "checkout", enabled: true, variants: ["blue"] }] }]);
  assert.equal(
    doc.featureEnvironments.map((fe) => [fe.featureName, fe.enabled, fe.variants.length]),
    [
      ["checkout", true, 0],
      ["search", true, 2],
    ],
  );
  const byName = await exportFeatures(source.kysely, { environment: "development", features: ["search"] });
  assert.equal(
    byName.features.map((f) => f.name),
    ["search"],
  );
  const byTag = await exportFeatures(source.kysely, { environment: "development", tag: "team:shop" });
  assert.equal(
    byTag.features.map((f) => f.name),
    ["checkout"],
  );
  await rejects(exportFeatures(source.kysely, { environment: "nowhere", project: "default" }), NotFoundError);
  await rejects(exportFeatures(source.kysely, { environment: "development" }), ValidationError);
});

test("round trip: an export imported into an empty project serves the same payload; the same import again changes nothing", async () => {
  const doc = await exportFeatures(source.kysely, { environment: "development", project: "default" });
  const body = { project: "default", environment: "development", data: doc };
  const validation = await validateImport(target.kysely, editor, body);
  assert.equal(validation.errors, []);
  assert.equal(validation.permissions, []);
  assert.equal(validation.warnings, [
    {
      message:
        "The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:",
      affectedItems: ["by-team"],
    },
  ]);

  const changes = await importFeatures(target.kysely, editor, body);
  assert.ok(changes.includes("created feature checkout"), changes.join("\n"));
  assert.equal(await served(target.kysely), await served(source.kysely));
  const tags = await target.kysely
    .selectFrom("feature_tags")
    .select(["feature_name", "tag_type", "tag_value"])
    .orderBy("feature_name")
    .execute();
  assert.equal(tags, [
    { feature_name: "checkout", tag_type: "team", tag_value: "shop" },
    { feature_name: "search", tag_type: "simple", tag_value: "findability" },
  ]);
  const imported = await target.kysely
    .selectFrom("events")
    .select(["type", "created_by"])
    .where("type", "=", "features-imported")
    .execute();
  assert.equal(imported, [{ type: "features-imported", created_by: "erin" }]);

  const events = await eventCount(target.kysely);
  assert.equal(await importFeatures(target.kysely, editor, body), []);
  assert.is(await eventCount(target.kysely), events);
  const again = await validateImport(target.kysely, editor, body);
  assert.equal(again.warnings.at(-1), {
    message: "The following features already exist in this project and will be overwritten:",
    affectedItems: ["checkout", "payments", "search"],
  });
});

test("an import changes only what differs: a changed rollout replaces that flag's strategies and nothing else", async () => {
  const doc = await exportFeatures(source.kysely, { environment: "development", project: "default" });
  const rollout = doc.featureStrategies.find((s) => s.name === "flexibleRollout");
  if (!rollout) throw new Error("no rollout strategy");
  rollout.parameters = { ...rollout.parameters, rollout: "75" };
  const stateOff = doc.featureEnvironments.find((fe) => fe.featureName === "search");
  if (stateOff) stateOff.enabled = false;
  const changes = await importFeatures(target.kysely, editor, { project: "default", environment: "development", data: doc });
  assert.equal(changes, ["replaced the strategies of checkout in development", "turned search off in development"]);
  assert.equal(await importFeatures(target.kysely, editor, { project: "default", environment: "development", data: doc }), []);
});

test("validate names what would refuse an import, in Unleash's words; import refuses it and changes nothing", async () => {
  await createProject(target.kysely, null, { id: "other", name: "Other" });
  await enableEnvironmentInProject(target.kysely, null, { projectId: "other", environment: "development" });
  const doc = {
    features: [{ name: "checkout" }, { name: "fresh" }, { name: "fresh" }],
    featureStrategies: [{ name: "nope", featureName: "fresh", segments: [9] }],
    segments: [{ id: 9, name: "unknown-segment" }],
    tagTypes: [],
    dependencies: [{ feature: "fresh", dependencies: [{ feature: "ghost" }] }],
  };
  const body = { project: "other", environment: "development", data: doc };
  const validation = await validateImport(target.kysely, viewer, body);
  assert.equal(
    validation.errors.map((e) => [e.message.split(":")[0]?.slice(0, 40), e.affectedItems]),
    [
      ["We detected the following custom strateg", ["nope"]],
      ["You cannot import a features that alread", ["checkout (in project default)"]],
      ["We detected the following features are d", ["fresh"]],
      ["We detected the following segments that ", ["unknown-segment"]],
      ["We detected the following dependencies t", ["ghost"]],
    ],
  );
  assert.equal(validation.permissions, [
    {
      message: "We detected you are missing the following permissions:",
      affectedItems: ["Update feature flags", "Create activation strategies", "Create feature flags"],
    },
  ]);
  const events = await eventCount(target.kysely);
  const refused = await rejects(importFeatures(target.kysely, editor, body), ValidationError);
  assert.is(refused.message, "Some of the strategies you are trying to import are not supported.");
  await rejects(importFeatures(target.kysely, viewer, { ...body, data: { ...doc, featureStrategies: [] } }), NoAccessError);
  assert.is(await eventCount(target.kysely), events);
  assert.not.ok(await target.kysely.selectFrom("features").select("name").where("name", "=", "fresh").executeTakeFirst());
  await rejects(validateImport(target.kysely, editor, { ...body, project: "missing" }), NotFoundError);
});

test("an admin token cannot import (Unleash's rule); an environment with change requests on takes an import only from who may skip them", async () => {
  const doc = await exportFeatures(source.kysely, { environment: "development", features: ["search"] });
  const refused = await rejects(
    importFeatures(target.kysely, adminToken, { project: "default", environment: "development", data: doc }),
    ValidationError,
  );
  assert.match(refused.message, "You can't use an admin token to import features.");
  await setChangeRequestConfig(target.kysely, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
  const body = { project: "default", environment: "production", data: doc };
  const validation = await validateImport(target.kysely, editor, body);
  assert.equal(validation.permissions[0]?.affectedItems, ["Skip change request process (API-only)"]);
  const gated = await rejects(importFeatures(target.kysely, editor, body), NoAccessError);
  assert.is(gated.permission, "SKIP_CHANGE_REQUEST");
  const admin: Principal = { kind: "user", userId: 1, username: "admin", rootRole: 1, via: "session" };
  assert.ok((await importFeatures(target.kysely, admin, body)).length > 0);
});

test("behind a savepoint, a refused import undoes only itself and the caller's transaction goes on", async () => {
  const flag = (name: string, strategy: string) => ({
    project: "default",
    environment: "development",
    data: { features: [{ name }], featureStrategies: [{ name: strategy, featureName: name }], tagTypes: [] },
  });
  await target.write(async (trx) => {
    await rejects(
      inSavepoint(trx, (step) => importFeatures(step, null, flag("savepoint-refused", "no-such-strategy"))),
      ValidationError,
    );
    // A refusal after a write of the same import: the savepoint undoes the write too.
    await rejects(
      inSavepoint(trx, async (step) => {
        await importFeatures(step, null, flag("savepoint-half", "default"));
        await importFeatures(step, null, flag("savepoint-half-2", "no-such-strategy"));
      }),
      ValidationError,
    );
    assert.equal(await inSavepoint(trx, (step) => importFeatures(step, null, flag("savepoint-kept", "default"))), [
      "created feature savepoint-kept",
      "replaced the strategies of savepoint-kept in development",
    ]);
  });
  const stored = await target.kysely.selectFrom("features").select("name").where("name", "like", "savepoint-%").execute();
  assert.equal(stored, [{ name: "savepoint-kept" }]);
});

test.after(async () => {
  await source.close();
  await target.close();
});

test.run();
