import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loginHeaders, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The idle limit is an hour here, so that "idle too long" is easy to set up in SQL.
const srv = await startTestServer({ SESSION_IDLE_TIMEOUT_MS: "3600000", AUTH_CACHE_TTL_MS: "0" });

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

test.after(async () => {
  await srv.close();
});

test.run();
