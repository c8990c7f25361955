import { once } from "node:events";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Metrics are stored when the test ticks the flush, never behind its back.
const srv = await startTestServer({ METRICS_FLUSH_INTERVAL_MS: "0" });
const admin = await adminToken(srv);
const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
const ENV = "/api/admin/projects/default/features/sdk.flag/environments/development";

assert.is((await call("POST", "/api/admin/projects/default/features", { name: "sdk.flag" })).status, 201);
const sdkToken = (await call("POST", "/api/admin/api-tokens", { tokenName: "sdk", type: "client", environment: "development" })).json
  .secret as string;
const sdk = { authorization: sdkToken };

function startSdk(options: Partial<ConstructorParameters<typeof Unleash>[0]> = {}): Unleash {
  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: "sdk-test",
    instanceId: "sdk-1",
    customHeaders: { Authorization: sdkToken },
    ...options,
  });
  unleash.on("error", (error) => assert.unreachable(String(error)));
  return unleash;
}

test("a change through the admin API reaches a polling SDK within its refresh interval; an unchanged poll is a 304", async () => {
  const unleash = startSdk({ refreshInterval: 200, disableMetrics: true });
  try {
    await once(unleash, "synchronized");
    assert.is(unleash.isEnabled("sdk.flag"), false);
    // The SDK says "unchanged" only when the server answers 304.
    await once(unleash, "unchanged");
    const changed = once(unleash, "changed");
    assert.is((await call("POST", `${ENV}/on`)).status, 200);
    await changed;
    assert.is(unleash.isEnabled("sdk.flag"), true);
  } finally {
    unleash.destroy();
  }
});

test("the SDK's register and metrics calls are accepted, and an admin reads the counts", async () => {
  const unleash = startSdk({ refreshInterval: 60_000, metricsInterval: 100 });
  try {
    await Promise.all([once(unleash, "registered"), once(unleash, "synchronized")]);
    const sent = once(unleash, "sent");
    for (let i = 0; i < 5; i++) unleash.isEnabled("sdk.flag");
    await sent;
  } finally {
    unleash.destroy();
  }
  await srv.app.metricsFlush.tick();
  const apps = (await call("GET", "/api/admin/metrics/applications")).json.applications;
  const app = apps.find((a: { appName: string }) => a.appName === "sdk-test");
  assert.equal(
    app.instances.map((i: { instanceId: string; environment: string }) => [i.instanceId, i.environment]),
    [["sdk-1", "development"]],
  );
  const raw = (await call("GET", "/api/admin/client-metrics/features/sdk.flag/raw")).json;
  const yes = raw.data
    .filter((r: { appName: string }) => r.appName === "sdk-test")
    .reduce((sum: number, r: { yes: number }) => sum + r.yes, 0);
  assert.is(yes, 5);
});

test("metrics are summed per feature, environment, application and hour; unknown features are dropped", async () => {
  const start = "2026-11-23T08:10:00.000Z";
  const report = (toggles: Record<string, unknown>) => ({ appName: "summed", instanceId: "a", bucket: { start, stop: start, toggles } });
  assert.is(
    (
      await call(
        "POST",
        "/api/client/metrics",
        report({ "sdk.flag": { yes: 2, no: 1, variants: { blue: 2 } }, ghost: { yes: 1, no: 0 } }),
        sdk,
      )
    ).status,
    202,
  );
  assert.is(
    (await call("POST", "/api/client/metrics", report({ "sdk.flag": { yes: 3, no: 0, variants: { blue: 1, red: 2 } } }), sdk)).status,
    202,
  );
  await srv.app.metricsFlush.tick();
  assert.is((await call("POST", "/api/client/metrics", report({ "sdk.flag": { yes: 1, no: 1 } }), sdk)).status, 202);
  await srv.app.metricsFlush.tick();
  const rows = (await call("GET", "/api/admin/client-metrics/features/sdk.flag/raw")).json.data.filter(
    (r: { appName: string }) => r.appName === "summed",
  );
  assert.equal(rows, [
    {
      featureName: "sdk.flag",
      appName: "summed",
      environment: "development",
      timestamp: "2026-11-23T08:00:00.000Z",
      yes: 6,
      no: 2,
      variants: { blue: 3, red: 2 },
    },
  ]);
  assert.equal(await srv.db.kysely.selectFrom("client_metrics").select("feature_name").where("feature_name", "=", "ghost").execute(), []);
});

test("bad reports are 400 and change nothing; a frontend token is 403; no token 401", async () => {
  const before = await dbSnapshot(srv.db.kysely);
  const bad = [
    { appName: "x", instanceId: "i", bucket: { start: "yesterday", stop: "now", toggles: {} } },
    {
      appName: "x",
      instanceId: "i",
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { "sdk.flag": { yes: -1, no: 0 } } },
    },
    { appName: "", instanceId: "i", bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} } },
  ];
  for (const body of bad) assertError(await call("POST", "/api/client/metrics", body, sdk), 400, "ValidationError");
  assertError(
    await call("POST", "/api/client/register", { appName: "x", instanceId: "i", started: "never", interval: 1, strategies: [] }, sdk),
    400,
    "ValidationError",
  );
  await srv.app.metricsFlush.tick();
  assert.equal(await dbSnapshot(srv.db.kysely), before);
  const frontend = (await call("POST", "/api/admin/api-tokens", { tokenName: "fe", type: "frontend", environment: "development" })).json
    .secret;
  assertError(
    await call(
      "POST",
      "/api/client/register",
      { appName: "x", instanceId: "i", started: new Date().toISOString(), interval: 1 },
      { authorization: frontend },
    ),
    403,
    "NoAccessError",
  );
  assertError(await call("POST", "/api/client/metrics", {}, {}), 401, "AuthenticationRequired");
});

test.after(() => srv.close());
test.run();
