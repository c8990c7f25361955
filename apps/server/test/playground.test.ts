import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, clientToken, frontendToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The playground (docs/playground.md): Unleash's POST /api/admin/playground and .../advanced.
const srv = await startTestServer();
const db = srv.db.kysely;
const admin = await adminToken(srv);
const viewer = await userWithRole(srv, "viewer");
const frontend = await frontendToken(srv);
const client = await clientToken(srv);

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) => {
  const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300 && !path.includes("playground")) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res;
};
const FEATURES = "/api/admin/projects/default/features";
const strategy = (flag: string, body: unknown) => call("POST", `${FEATURES}/${flag}/environments/development/strategies`, body);
const flag = async (name: string, on: boolean) => {
  await call("POST", FEATURES, { name });
  if (on) await call("POST", `${FEATURES}/${name}/environments/development/on`, {});
};
const IN = (contextName: string, values: string[]) => ({ contextName, operator: "IN", values, inverted: false, caseInsensitive: false });

// The dataset: a gradual rollout constrained to `plan IN pro` with a segment, a flag switched off, one without
// strategies, a disabled strategy, applicationHostname (not evaluable here), a child, strategy variants, a 50% rollout.
await call("POST", "/api/admin/context", { name: "plan", legalValues: [{ value: "pro" }, { value: "free" }] });
const eu = (await call("POST", "/api/admin/segments", { name: "eu", constraints: [IN("region", ["eu"])] })).json;
await flag("rollout-pro", true);
await strategy("rollout-pro", {
  name: "flexibleRollout",
  parameters: { rollout: "100", stickiness: "default", groupId: "rollout-pro" },
  constraints: [IN("plan", ["pro"])],
  segments: [eu.id],
});
await flag("off-flag", false);
await strategy("off-flag", { name: "default" });
await flag("no-strategy", true);
await flag("with-disabled", true);
await strategy("with-disabled", { name: "default", disabled: true, sortOrder: 0 });
await strategy("with-disabled", { name: "userWithId", parameters: { userIds: "alice" }, sortOrder: 1 });
await flag("app-host", true);
await strategy("app-host", {
  name: "applicationHostname",
  parameters: { hostNames: "nowhere.example" },
  constraints: [IN("plan", ["pro"])],
});
await flag("child", true);
await strategy("child", { name: "default" });
await call("POST", `${FEATURES}/child/dependencies`, { feature: "rollout-pro" });
await flag("blue-variant", true);
await strategy("blue-variant", {
  name: "default",
  variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default", payload: { type: "string", value: "b" } }],
});
await flag("half", true);
await strategy("half", { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "userId", groupId: "half" } });

const pro = { appName: "shop", userId: "u1", remoteAddress: "10.0.0.1", properties: { plan: "pro", region: "eu" } };
const free = { ...pro, properties: { plan: "free", region: "eu" } };
const play = (context: unknown, extra: Record<string, unknown> = {}, headers = viewer.headers) =>
  call("POST", "/api/admin/playground", { environment: "development", context, ...extra }, headers);
const byName = (features: { name: string }[]) => new Map(features.map((f) => [f.name, f as any]));

test("each flag's answer, and for each strategy and constraint whether it held", async () => {
  const res = await play(pro);
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.equal(res.json.input, { environment: "development", context: pro });
  const flags = byName(res.json.features);
  assert.equal([...flags.keys()].sort(), [
    "app-host",
    "blue-variant",
    "child",
    "half",
    "no-strategy",
    "off-flag",
    "rollout-pro",
    "with-disabled",
  ]);

  const rollout = flags.get("rollout-pro");
  assert.is(rollout.projectId, "default");
  assert.is(rollout.isEnabled, true);
  assert.is(rollout.isEnabledInCurrentEnvironment, true);
  assert.is(rollout.hasUnsatisfiedDependency, false);
  assert.is(rollout.strategies.result, true);
  const [s] = rollout.strategies.data;
  assert.equal(s.result, { evaluationStatus: "complete", enabled: true });
  assert.equal(s.constraints, [{ ...IN("plan", ["pro"]), result: true }]);
  assert.equal(s.segments, [{ id: eu.id, name: "eu", result: true, constraints: [{ ...IN("region", ["eu"]), result: true }] }]);
  assert.is(s.disabled, false);
  assert.equal(s.parameters, { rollout: "100", stickiness: "default", groupId: "rollout-pro" });
  assert.match(s.links.edit, /^\/projects\/default\/features\/rollout-pro\?environment=development&strategy=/);
  assert.equal(rollout.variant, { name: "disabled", enabled: false, feature_enabled: true, featureEnabled: true });

  const off = flags.get("off-flag");
  assert.is(off.isEnabledInCurrentEnvironment, false);
  assert.is(off.isEnabled, false);
  assert.is(off.strategies.result, true, "its strategy holds, but the switch is off");
  assert.equal(off.variant, { name: "disabled", enabled: false, feature_enabled: false });

  const none = flags.get("no-strategy");
  assert.equal(none.strategies, { result: true, data: [] });
  assert.is(none.isEnabled, true);

  const disabled = flags.get("with-disabled");
  assert.equal(
    disabled.strategies.data.map((d: any) => [d.name, d.disabled, d.result]),
    [
      ["default", true, { evaluationStatus: "unevaluated", enabled: "unknown" }],
      ["userWithId", false, { evaluationStatus: "complete", enabled: false }],
    ],
  );
  assert.is(disabled.strategies.result, false, "a disabled strategy is not evaluated");
  assert.is(disabled.isEnabled, false);

  const host = flags.get("app-host");
  assert.equal(host.strategies.data[0].result, { evaluationStatus: "incomplete", enabled: "unknown" });
  assert.is(host.strategies.result, "unknown");
  assert.is(host.isEnabled, false, "an SDK on this server's host answers off");

  assert.is(flags.get("child").hasUnsatisfiedDependency, false);
  assert.is(flags.get("child").isEnabled, true);

  const blue = flags.get("blue-variant");
  assert.equal(blue.variant, {
    name: "blue",
    enabled: true,
    payload: { type: "string", value: "b" },
    feature_enabled: true,
  });
  assert.equal(blue.strategies.data[0].result.variant, { name: "blue", enabled: true, payload: { type: "string", value: "b" } });
  assert.equal(
    blue.variants.map((v: any) => v.name),
    ["blue"],
  );
});

test("for a free user: the constraint fails, the child's parent is off, applicationHostname is false", async () => {
  const flags = byName((await play(free)).json.features);
  const rollout = flags.get("rollout-pro");
  assert.is(rollout.isEnabled, false);
  assert.is(rollout.strategies.result, false);
  assert.equal(rollout.strategies.data[0].result, { evaluationStatus: "complete", enabled: false });
  assert.equal(rollout.strategies.data[0].constraints[0].result, false);
  assert.equal(rollout.strategies.data[0].segments[0].result, true);
  assert.equal(flags.get("app-host").strategies.data[0].result, { evaluationStatus: "incomplete", enabled: false });
  assert.is(flags.get("app-host").strategies.result, false);
  assert.is(flags.get("child").hasUnsatisfiedDependency, true);
  assert.is(flags.get("child").isEnabled, false);
  assert.is(flags.get("with-disabled").isEnabled, false);
  const alice = byName((await play({ ...free, userId: "alice" })).json.features);
  assert.is(alice.get("with-disabled").isEnabled, true);
  assert.is(alice.get("with-disabled").strategies.result, true);
});

test("the answers are the frontend API's, and the explanation agrees with them, for 150 contexts", async () => {
  for (let i = 0; i < 150; i++) {
    const properties: Record<string, string> = { region: i % 5 === 0 ? "us" : "eu" };
    if (i % 3 !== 2) properties.plan = i % 3 === 0 ? "pro" : "free";
    const context = { appName: "shop", userId: `user-${i}`, remoteAddress: "10.0.0.1", properties };
    const features = (await play(context)).json.features as any[];
    const toggles = (await srv.call("POST", "/api/frontend", { headers: frontend, body: { context } })).json.toggles as any[];
    const on = features.filter((f) => f.isEnabled);
    assert.equal(on.map((f) => f.name).sort(), toggles.map((t) => t.name).sort(), `context ${JSON.stringify(context)}`);
    for (const t of toggles) {
      const f = on.find((x) => x.name === t.name);
      assert.equal(
        { name: f.variant.name, enabled: f.variant.enabled, payload: f.variant.payload },
        { name: t.variant.name, enabled: t.variant.enabled, payload: t.variant.payload },
      );
    }
    for (const f of features) {
      if (f.strategies.result === "unknown") continue;
      const explained = f.isEnabledInCurrentEnvironment && !f.hasUnsatisfiedDependency && f.strategies.result === true;
      assert.is(f.isEnabled, explained, `${f.name} for ${JSON.stringify(context)}`);
      for (const s of f.strategies.data) {
        if (s.result.evaluationStatus !== "complete") continue;
        const passes = s.constraints.every((c: any) => c.result) && s.segments.every((g: any) => g.result);
        if (s.result.enabled) assert.ok(passes, `${f.name}: a strategy that holds passed its constraints`);
      }
    }
  }
});

test("projects: one list, none, an unknown one; the context's own fields as properties", async () => {
  assert.is((await play(pro, { projects: ["default"] })).json.features.length, 8);
  assert.equal((await play(pro, { projects: ["no-such-project"] })).json.features, []);
  assert.equal((await play(pro, { projects: [] })).json.features, []);
  assert.is((await play(pro, { projects: "*" })).json.features.length, 8);
  // A top-level field that is not the SDK's is read as the SDK reads it: as a property.
  const flags = byName((await play({ appName: "shop", userId: "u1", plan: "pro", region: "eu" })).json.features);
  assert.is(flags.get("rollout-pro").isEnabled, true);
});

test("the advanced playground: every combination of comma-separated values in every environment", async () => {
  const res = await call(
    "POST",
    "/api/admin/playground/advanced",
    { environments: ["development", "production"], context: { appName: "shop", userId: "alice,bob", properties: { plan: "pro,free" } } },
    viewer.headers,
  );
  assert.is(res.status, 200, JSON.stringify(res.json));
  const feature = res.json.features.find((f: any) => f.name === "with-disabled");
  assert.equal(Object.keys(feature.environments).sort(), ["development", "production"]);
  assert.is(feature.environments.development.length, 4);
  assert.equal(
    feature.environments.development.map((e: any) => [e.context.userId, e.context.properties.plan, e.environment, e.isEnabled]),
    [
      ["alice", "pro", "development", true],
      ["alice", "free", "development", true],
      ["bob", "pro", "development", false],
      ["bob", "free", "development", false],
    ],
  );
  assert.ok(feature.environments.production.every((e: any) => e.isEnabledInCurrentEnvironment === false && e.isEnabled === false));
});

test("refused, changing nothing: no appName, an unknown environment or field, too many combinations; who may ask", async () => {
  const before = await dbSnapshot(db);
  assertError(await play({ userId: "u1" }), 400, "ValidationError");
  assertError(await play({ appName: "" }), 400, "ValidationError");
  assertError(await play({ appName: "a", currentTime: "not a date" }), 400, "ValidationError");
  assertError(await play({ appName: "a", properties: { plan: 1 } }), 400, "ValidationError");
  const unknownEnv = await call("POST", "/api/admin/playground", { environment: "nowhere", context: pro }, viewer.headers);
  assertError(unknownEnv, 400, "ValidationError");
  assert.match(unknownEnv.json.message, /nowhere/);
  assertError(await play(pro, { surprise: true }), 400, "ValidationError");
  // 100 x 100 contexts (each value within the 1000-character limit) x 8 flags: past the 15,000.
  const many = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}${i}`).join(",");
  const tooMany = await call(
    "POST",
    "/api/admin/playground/advanced",
    { environments: ["development"], context: { appName: "shop", userId: many("u"), sessionId: many("s") } },
    viewer.headers,
  );
  assertError(tooMany, 400, "ValidationError");
  assert.match(tooMany.json.message, /15000/);
  assertError(
    await call("POST", "/api/admin/playground/advanced", { environments: [], context: pro }, viewer.headers),
    400,
    "ValidationError",
  );
  assertError(await play(pro, {}, {}), 401, "AuthenticationRequired");
  assertError(await play(pro, {}, client), 403, "NoAccessError");
  assertError(await play(pro, {}, frontend), 403, "NoAccessError");
  assert.is((await play(pro, {}, admin)).status, 200);
  assert.equal(await dbSnapshot(db), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
