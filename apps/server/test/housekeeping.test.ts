import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, loginHeaders, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The idle limit is an hour here, so that "idle too long" is easy to set up in SQL; metrics are
// stored when the test ticks the flush.
const srv = await startTestServer({
  SESSION_IDLE_TIMEOUT_MS: "3600000",
  AUTH_CACHE_TTL_MS: "0",
  METRICS_FLUSH_INTERVAL_MS: "0",
  METRICS_RETENTION_DAYS: "30",
});

test("housekeeping deletes expired and idle sessions and old failed logins, and keeps the rest working", async () => {
  const user = await userWithRole(srv, "editor", "hk-user");
  const expired = await loginHeaders(srv, user.username, TEST_PASSWORD);
  const idle = await loginHeaders(srv, user.username, TEST_PASSWORD);
  const live = user.headers;
  const sessions = await srv.db.kysely.selectFrom("sessions").select(["id"]).where("user_id", "=", user.id).orderBy("seq").execute();
  assert.is(sessions.length, 3);
  const [liveId, expiredId, idleId] = sessions.map((s) => s.id) as [string, string, string];
  await srv.db.kysely
    .updateTable("sessions")
    .set({ expires_at: sql<Date>`now() - interval '1 second'` })
    .where("id", "=", expiredId)
    .execute();
  await srv.db.kysely
    .updateTable("sessions")
    .set({ last_seen_at: sql<Date>`now() - interval '2 hours'` })
    .where("id", "=", idleId)
    .execute();
  await srv.db.kysely
    .insertInto("login_failures")
    .values([
      { account: "someone", ip: "10.0.0.1", failed_at: new Date(Date.now() - 2 * 3600_000) },
      { account: "someone", ip: "10.0.0.1", failed_at: new Date() },
    ])
    .execute();

  await srv.app.housekeeping.tick();

  const left = await srv.db.kysely.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  assert.equal(
    left.map((s) => s.id),
    [liveId],
  );
  const failures = await srv.db.kysely.selectFrom("login_failures").select("failed_at").where("account", "=", "someone").execute();
  assert.is(failures.length, 1, "the failure inside the window still counts");
  assert.ok(failures[0] && failures[0].failed_at.getTime() > Date.now() - 60_000);
  assert.is((await srv.call("GET", "/api/admin/banners", { headers: live })).status, 200);
  for (const headers of [expired, idle]) assert.is((await srv.call("GET", "/api/admin/banners", { headers })).status, 401);
  const log = srv.logs.find((line) => line.msg === "expired auth records deleted");
  assert.equal([log?.sessions, log?.loginFailures], [2, 1]);
});

test("housekeeping rolls SDK metrics older than two days up to days and deletes days past the retention; every reader still adds up", async () => {
  const admin = await adminToken(srv);
  const sdk = await clientToken(srv);
  assert.is((await srv.call("POST", "/api/admin/projects/default/features", { body: { name: "hk.metrics" }, headers: admin })).status, 201);
  const DAY = 86_400_000;
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const report = (at: number, yes: number, no: number, variants: Record<string, number>) => ({
    appName: "hk-app",
    instanceId: "hk-1",
    bucket: { start: new Date(at).toISOString(), stop: new Date(at).toISOString(), toggles: { "hk.metrics": { yes, no, variants } } },
  });
  // Two hours of a day four days ago, one of a day past the retention, and one of now.
  const fourDaysAgo = today - 4 * DAY;
  for (const body of [
    report(fourDaysAgo + 9 * 3_600_000, 3, 1, { blue: 3 }),
    report(fourDaysAgo + 17 * 3_600_000 + 60_000, 4, 2, { blue: 1, red: 3 }),
    report(today - 40 * DAY, 100, 100, {}),
    report(now, 5, 0, { red: 5 }),
  ]) {
    assert.is((await srv.call("POST", "/api/client/metrics", { body, headers: sdk })).status, 202);
  }
  await srv.app.metricsFlush.tick();
  const raw = async () => (await srv.call("GET", "/api/admin/client-metrics/features/hk.metrics/raw", { headers: admin })).json.data;
  const lastHour = async () => {
    const res = await srv.call("GET", "/api/admin/search/features?query=hk.metrics", { headers: admin });
    const env = res.json.features[0].environments.find((e: { name: string }) => e.name === "development");
    return [env.yes, env.no];
  };
  assert.is((await raw()).length, 4);
  const searchedBefore = await lastHour();
  assert.equal(searchedBefore, [5, 0]);

  await srv.app.housekeeping.tick();

  const hour = new Date(Math.floor(now / 3_600_000) * 3_600_000).toISOString();
  const row = { featureName: "hk.metrics", appName: "hk-app", environment: "development" };
  assert.equal(await raw(), [
    { ...row, timestamp: new Date(fourDaysAgo).toISOString(), yes: 7, no: 3, variants: { blue: 4, red: 3 } },
    { ...row, timestamp: hour, yes: 5, no: 0, variants: { red: 5 } },
  ]);
  assert.equal(await lastHour(), searchedBefore);
  const db = srv.db.kysely;
  assert.equal(
    (await db.selectFrom("client_metrics").select("hour").where("feature_name", "=", "hk.metrics").execute()).map((r) =>
      r.hour.toISOString(),
    ),
    [hour],
  );
  assert.equal(
    (await db.selectFrom("client_metrics_daily").select(["day", "yes", "no"]).where("feature_name", "=", "hk.metrics").execute()).map(
      (r) => [r.day.toISOString(), Number(r.yes), Number(r.no)],
    ),
    [[new Date(fourDaysAgo).toISOString(), 7, 3]],
  );
  const log = srv.logs.find((line) => line.msg === "SDK metrics rolled up to days and pruned");
  // Rolled up: the three old hours' counts and their three variant counts; deleted: the old day's counts.
  assert.equal([log?.hourlyRowsRolledUp, log?.dailyRowsDeleted], [6, 1]);
});

test.after(async () => {
  await srv.close();
});

test.run();
