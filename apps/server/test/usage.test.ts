import { once } from "node:events";
import { pruneUnknownFlags } from "@vexil/services";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Metrics are stored when the test ticks the flush, never behind its back.
const srv = await startTestServer({ METRICS_FLUSH_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });

assert.is((await call("POST", "/api/admin/projects/default/features", { name: "usage.flag" })).status, 201);
const sdkToken = (await call("POST", "/api/admin/api-tokens", { tokenName: "sdk", type: "client", environment: "development" })).json
  .secret as string;
const sdk = { authorization: sdkToken };
const HOUR = 3_600_000;
const hourOf = (at: number) => new Date(Math.floor(at / HOUR) * HOUR).toISOString();
const report = (appName: string, at: number, toggles: Record<string, unknown>) => {
  const start = new Date(at).toISOString();
  return { appName, instanceId: "i", bucket: { start, stop: start, toggles } };
};

test("the real SDK's registration and metrics show as its application, the flag's usage and its unknown flags", async () => {
  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: "usage-app",
    instanceId: "usage-1",
    refreshInterval: 60_000,
    metricsInterval: 100,
    customHeaders: { Authorization: sdkToken },
  });
  unleash.on("error", (error) => assert.unreachable(String(error)));
  try {
    await Promise.all([once(unleash, "registered"), once(unleash, "synchronized")]);
    const sent = once(unleash, "sent");
    for (let i = 0; i < 3; i++) unleash.isEnabled("usage.flag");
    for (let i = 0; i < 2; i++) unleash.isEnabled("usage.typo");
    await sent;
  } finally {
    unleash.destroy();
  }
  await srv.app.metricsFlush.tick();

  const app = await call("GET", "/api/admin/metrics/applications/usage-app");
  assert.is(app.status, 200);
  assert.equal(
    app.json.instances.map((i: { instanceId: string; environment: string }) => [i.instanceId, i.environment]),
    [["usage-1", "development"]],
  );
  assert.match(String(app.json.instances[0].sdkVersion), /^unleash-node-sdk:\d+\.\d+\.\d+$/, JSON.stringify(app.json.instances));
  assert.equal(app.json.seenToggles, [
    { name: "usage.flag", project: "default", type: "release", description: null },
    { name: "usage.typo", notFound: true },
  ]);
  assert.ok(app.json.strategies.some((s: { name: string; notFound?: boolean }) => s.name === "flexibleRollout" && !s.notFound));
  assert.equal(app.json.links, { self: "/api/applications/usage-app" });

  const usage = await call("GET", "/api/admin/client-metrics/features/usage.flag");
  assert.is(usage.status, 200);
  assert.equal(usage.json.seenApplications, ["usage-app"]);
  assert.equal(
    usage.json.lastHourUsage.map((u: { environment: string; yes: number; no: number }) => [u.environment, u.yes, u.no]),
    [["development", 0, 3]],
  );

  const unknown = (await call("GET", "/api/admin/metrics/unknown-flags")).json.unknownFlags;
  const typo = unknown.find((f: { name: string }) => f.name === "usage.typo");
  assert.equal(typo.reports, [{ appName: "usage-app", environments: [{ environment: "development", seenAt: typo.lastSeenAt }] }]);
  assert.is(typo.lastEventAt, null);
  assert.equal(await db.selectFrom("client_metrics").select("feature_name").where("feature_name", "=", "usage.typo").execute(), []);

  // Once the flag exists it is no longer unknown.
  assert.is((await call("POST", "/api/admin/projects/default/features", { name: "usage.typo" })).status, 201);
  const after = (await call("GET", "/api/admin/metrics/unknown-flags")).json.unknownFlags;
  assert.not.ok(after.some((f: { name: string }) => f.name === "usage.typo"));
});

test("hoursBack gives the hours of the last 48 per application and environment, with yes, no and variants", async () => {
  const now = Date.now();
  const recent = now - 3 * HOUR;
  const old = now - 60 * HOUR;
  const posts = [
    report("hours", recent, { "usage.flag": { yes: 4, no: 1, variants: { blue: 3, red: 1 } } }),
    report("hours", old, { "usage.flag": { yes: 7, no: 0 } }),
  ];
  for (const body of posts) assert.is((await call("POST", "/api/client/metrics", body, sdk)).status, 202);
  await srv.app.metricsFlush.tick();

  const rowsOf = async (query: string) =>
    (await call("GET", `/api/admin/client-metrics/features/usage.flag/raw${query}`)).json.data.filter(
      (r: { appName: string }) => r.appName === "hours",
    );
  assert.equal(await rowsOf("?hoursBack=48"), [
    {
      featureName: "usage.flag",
      appName: "hours",
      environment: "development",
      timestamp: hourOf(recent),
      yes: 4,
      no: 1,
      variants: { blue: 3, red: 1 },
    },
  ]);
  // Without hoursBack, or with a value Unleash ignores, every count kept.
  for (const query of ["", "?hoursBack=0", "?hoursBack=49", "?hoursBack=soon"]) {
    assert.equal(
      (await rowsOf(query)).map((r: { timestamp: string; yes: number }) => [r.timestamp, r.yes]),
      [
        [hourOf(old), 7],
        [hourOf(recent), 4],
      ],
      query,
    );
  }
});

test("what does not exist is a 404 NotFoundError and changes nothing; no token is 401, an SDK token 403", async () => {
  const before = await dbSnapshot(db);
  assertError(await call("GET", "/api/admin/metrics/applications/no-such-app"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/client-metrics/features/no-such-flag"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/client-metrics/features/no-such-flag/raw?hoursBack=48"), 404, "NotFoundError");
  assertError(await call("GET", "/api/admin/metrics/unknown-flags", undefined, {}), 401, "AuthenticationRequired");
  assertError(await call("GET", "/api/admin/metrics/unknown-flags", undefined, sdk), 403, "NoAccessError");
  assertError(await call("GET", "/api/admin/metrics/applications/usage-app", undefined, sdk), 403, "NoAccessError");
  assert.equal(await dbSnapshot(db), before);
});

test("housekeeping keeps the unknown flags of the last day, the 1000 most recently reported", async () => {
  const now = new Date();
  const rows = Array.from({ length: 1005 }, (_, i) => ({
    name: `flood-${String(i).padStart(4, "0")}`,
    app_name: "flood",
    environment: "development",
    seen_at: new Date(now.getTime() - i * 1000),
  }));
  await db.insertInto("unknown_flags").values(rows).execute();
  await db
    .insertInto("unknown_flags")
    .values({ name: "stale-typo", app_name: "flood", environment: "development", seen_at: new Date(now.getTime() - 25 * HOUR) })
    .execute();
  const deleted = await pruneUnknownFlags(db, now);
  const kept = await db.selectFrom("unknown_flags").select("name").orderBy("seen_at", "desc").execute();
  assert.is(kept.length, 1000);
  assert.ok(deleted >= 6);
  assert.not.ok(kept.some((r) => r.name === "stale-typo" || r.name === "flood-1004"));
  const listed = (await call("GET", "/api/admin/metrics/unknown-flags")).json.unknownFlags;
  assert.ok(listed.length <= 1000);
  assert.equal(
    listed.map((f: { name: string }) => f.name),
    [...listed.map((f: { name: string }) => f.name)].sort(),
  );
});

test("a flood of made-up names in one report records at most 1000 of them", async () => {
  await db.deleteFrom("unknown_flags").execute();
  const toggles = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`made-up-${i}`, { yes: 1, no: 0 }]));
  assert.is((await call("POST", "/api/client/metrics", report("flood", Date.now(), toggles), sdk)).status, 202);
  await srv.app.metricsFlush.tick();
  const { count } = await db
    .selectFrom("unknown_flags")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  assert.is(Number(count), 1000);
});

test.after(() => srv.close());
test.run();
