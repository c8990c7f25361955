import { once } from "node:events";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Metrics are stored when the test ticks the flush, never behind its back.
const srv = await startTestServer({ METRICS_FLUSH_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
const FEATURES = "/api/admin/projects/default/features";
const lifecycleOf = (flag: string) => `${FEATURES}/${flag}/lifecycle`;

let seq = 0;
async function newFlag(prefix = "lifecycle"): Promise<{ name: string; createdAt: string }> {
  const res = await call("POST", FEATURES, { name: `${prefix}.${++seq}` });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return res.json;
}
const sdkToken = async (environment: string) =>
  (await call("POST", "/api/admin/api-tokens", { tokenName: `lifecycle-${environment}`, type: "client", environment })).json
    .secret as string;
const tokens = { development: await sdkToken("development"), production: await sdkToken("production") };

/** The real Node SDK, with a token of one environment, evaluates the flags and reports it; then the flush runs. */
async function evaluateWithSdk(environment: keyof typeof tokens, flags: string[]): Promise<void> {
  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: "lifecycle-test",
    instanceId: `lifecycle-${environment}`,
    customHeaders: { Authorization: tokens[environment] },
    refreshInterval: 60_000,
    metricsInterval: 100,
  });
  unleash.on("error", (error) => assert.unreachable(String(error)));
  try {
    await once(unleash, "synchronized");
    const sent = once(unleash, "sent");
    for (const flag of flags) unleash.isEnabled(flag);
    await sent;
  } finally {
    unleash.destroy();
  }
}

const stagesOf = async (flag: string) => {
  const res = await call("GET", lifecycleOf(flag));
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json as { stage: string; status?: string; enteredStageAt: string }[];
};
const lastSeen = async (flag: string) => {
  const feature = await db.selectFrom("features").select("last_seen_at").where("name", "=", flag).executeTakeFirstOrThrow();
  const environments = await db
    .selectFrom("feature_environments")
    .select(["environment_name", "last_seen_at"])
    .where("feature_name", "=", flag)
    .where("last_seen_at", "is not", null)
    .orderBy("environment_name")
    .execute();
  const seen: Record<string, Date | null> = { feature: feature.last_seen_at };
  for (const e of environments) seen[e.environment_name] = e.last_seen_at;
  return seen;
};
const eventsOf = (flag: string) =>
  db
    .selectFrom("events")
    .select(["type", "project", "feature_name", "environment", "data"])
    .where("feature_name", "=", flag)
    .where("type", "in", ["feature-completed", "feature-uncompleted"])
    .orderBy("id")
    .execute();
const count = async () => {
  const res = await call("GET", "/api/admin/lifecycle/count");
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json as Record<"initial" | "preLive" | "live" | "completed" | "archived", number>;
};

test("a new flag is in the initial stage from its creation", async () => {
  const flag = await newFlag();
  assert.equal(await stagesOf(flag.name), [{ stage: "initial", enteredStageAt: flag.createdAt }]);
});

test("the Node SDK's reports stamp last seen per environment in the flush and move a flag initial -> pre-live -> live", async () => {
  const { name: flag } = await newFlag();
  const before = await count();

  await evaluateWithSdk("development", [flag, "lifecycle.ghost"]);
  assert.equal(await lastSeen(flag), { feature: null }, "the report is batched: nothing is stored before the flush");
  await srv.app.metricsFlush.tick();
  const seenInDevelopment = await lastSeen(flag);
  assert.instance(seenInDevelopment.feature, Date);
  assert.equal(seenInDevelopment, { feature: seenInDevelopment.feature, development: seenInDevelopment.feature });
  assert.equal(
    (await stagesOf(flag)).map((s) => s.stage),
    ["initial", "pre-live"],
  );

  // Off in production: seen there, but not live.
  await evaluateWithSdk("production", [flag]);
  await srv.app.metricsFlush.tick();
  const seenInProduction = await lastSeen(flag);
  assert.ok(seenInProduction.production && seenInProduction.production >= seenInDevelopment.feature!);
  assert.equal(seenInProduction, {
    feature: seenInProduction.production,
    development: seenInDevelopment.feature,
    production: seenInProduction.production,
  });
  assert.equal(
    (await stagesOf(flag)).map((s) => s.stage),
    ["initial", "pre-live"],
  );

  assert.is((await call("POST", `${FEATURES}/${flag}/environments/production/on`)).status, 200);
  await evaluateWithSdk("production", [flag]);
  await srv.app.metricsFlush.tick();
  const stages = await stagesOf(flag);
  assert.equal(
    stages.map((s) => s.stage),
    ["initial", "pre-live", "live"],
  );
  const times = stages.map((s) => Date.parse(s.enteredStageAt));
  assert.equal(times, [...times].sort(), "oldest first");
  assert.equal(await count(), { ...before, initial: before.initial - 1, live: before.live + 1 });

  // The SDK counted the unknown flag too: nothing is stored for it.
  for (const table of ["feature_lifecycles", "feature_environments"] as const) {
    assert.equal(await db.selectFrom(table).select("feature_name").where("feature_name", "=", "lifecycle.ghost").execute(), []);
  }
});

test("complete and uncomplete: stored, answered 200, logged as Unleash logs them", async () => {
  const { name: flag } = await newFlag();
  const before = await count();
  const complete = await call("POST", `${lifecycleOf(flag)}/complete`, { status: "kept", statusValue: "blue" });
  assert.is(complete.status, 200, JSON.stringify(complete.json));
  let stages = await stagesOf(flag);
  assert.equal(
    stages.map(({ stage, status }) => [stage, status]),
    [
      ["initial", undefined],
      ["completed", "kept"],
    ],
  );
  const completedAt = stages[1]?.enteredStageAt;
  assert.equal(await count(), { ...before, initial: before.initial - 1, completed: before.completed + 1 });

  // Completed again: the new status, the first time it was completed.
  assert.is((await call("POST", `${lifecycleOf(flag)}/complete`, { status: "discarded" })).status, 200);
  stages = await stagesOf(flag);
  assert.equal(stages[1], { stage: "completed", status: "discarded", enteredStageAt: completedAt });
  const stored = await db
    .selectFrom("feature_lifecycles")
    .select(["status", "status_value"])
    .where("feature_name", "=", flag)
    .where("stage", "=", "completed")
    .executeTakeFirstOrThrow();
  assert.equal(stored, { status: "discarded", status_value: null });

  const uncomplete = await call("POST", `${lifecycleOf(flag)}/uncomplete`);
  assert.is(uncomplete.status, 200, JSON.stringify(uncomplete.json));
  assert.equal(
    (await stagesOf(flag)).map((s) => s.stage),
    ["initial"],
  );
  assert.equal(await count(), before);
  // Unleash logs an uncomplete of a flag that is not completed too.
  assert.is((await call("POST", `${lifecycleOf(flag)}/uncomplete`)).status, 200);

  const common = { project: "default", feature_name: flag, environment: null };
  assert.equal(await eventsOf(flag), [
    { type: "feature-completed", ...common, data: { status: "kept", statusValue: "blue", kept: true } },
    { type: "feature-completed", ...common, data: { status: "discarded", kept: false } },
    { type: "feature-uncompleted", ...common, data: null },
    { type: "feature-uncompleted", ...common, data: null },
  ]);
});

test("a flag is archived while features.archived_at is set, and counted there only", async () => {
  const { name: flag } = await newFlag();
  await call("POST", `${lifecycleOf(flag)}/complete`, { status: "kept" });
  const before = await count();
  const archivedAt = new Date(Date.now() + 1000);
  await db.updateTable("features").set({ archived_at: archivedAt }).where("name", "=", flag).execute();
  assert.equal((await stagesOf(flag)).at(-1), { stage: "archived", enteredStageAt: archivedAt.toISOString() });
  assert.equal(await count(), { ...before, completed: before.completed - 1, archived: before.archived + 1 });
  // An archived flag that an SDK still reports stays archived.
  await evaluateWithSdk("development", [flag]);
  await srv.app.metricsFlush.tick();
  assert.equal(
    (await stagesOf(flag)).map((s) => s.stage),
    ["initial", "completed", "archived"],
  );
  await db.updateTable("features").set({ archived_at: null }).where("name", "=", flag).execute();
  assert.equal(await count(), before);
});

test("statuses: 400 for a bad body, 404 for a path that names nothing, 403 without UPDATE_FEATURE; none of them changes anything", async () => {
  const { name: flag } = await newFlag();
  assert.is((await call("POST", "/api/admin/projects", { id: "lifecycle-other", name: "Other" })).status, 201);
  const viewer = (await userWithRole(srv, "viewer")).headers;
  const editor = (await userWithRole(srv, "editor")).headers;
  const client = await clientToken(srv);
  const before = await dbSnapshot(db);

  for (const body of [{}, { status: "kept-ish" }, { status: "kept", extra: 1 }, { status: "kept", statusValue: 3 }, []]) {
    assertError(await call("POST", `${lifecycleOf(flag)}/complete`, body), 400, "ValidationError");
  }
  for (const path of [
    "/api/admin/projects/nowhere/features/x/lifecycle",
    `/api/admin/projects/lifecycle-other/features/${flag}/lifecycle`,
    `${FEATURES}/no-such-flag/lifecycle`,
  ]) {
    assertError(await call("GET", path), 404, "NotFoundError");
    assertError(await call("POST", `${path}/complete`, { status: "kept" }), 404, "NotFoundError");
    assertError(await call("POST", `${path}/uncomplete`), 404, "NotFoundError");
  }
  assertError(await call("POST", `${lifecycleOf(flag)}/complete`, { status: "kept" }, viewer), 403, "NoAccessError");
  assertError(await call("POST", `${lifecycleOf(flag)}/uncomplete`, undefined, viewer), 403, "NoAccessError");
  assertError(await call("GET", lifecycleOf(flag), undefined, client), 403, "NoAccessError");
  assertError(await call("GET", "/api/admin/lifecycle/count", undefined, {}), 401, "AuthenticationRequired");
  assert.equal(await dbSnapshot(db), before);

  assert.is((await call("GET", lifecycleOf(flag), undefined, viewer)).status, 200);
  assert.is((await call("GET", "/api/admin/lifecycle/count", undefined, viewer)).status, 200);
  assert.is((await call("POST", `${lifecycleOf(flag)}/complete`, { status: "kept" }, editor)).status, 200);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
