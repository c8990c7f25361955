import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "./support/eventually.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTcpRelay } from "./support/tcp-relay.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// A scheduled change request meets a database fault while the scheduler applies it: it must stay
// Scheduled with nothing half-applied, and a later pass must apply it. Each fault needs a real
// Postgres to lose, kill under or slow down; PGlite runs none of them.
const serverUrl = process.env.TEST_DATABASE_URL;
const P = "/api/admin/projects/default";
const RETRY_LOG = "a scheduled change request met a transient failure; it will be retried";

if (serverUrl) {
  const testDb = await createTestDb();
  const databaseUrl = testDb.databaseUrl as string;
  const relay = await startTcpRelay(databaseUrl);
  // Two instances on one database, their schedulers ticked by hand: one reaches it through a relay
  // the test can cut, the other gives up on a statement after 500 ms.
  const env = { SCHEDULER_INTERVAL_MS: "0", PASSWORD_WORKERS: "1" };
  const relayed = await startTestServer(env, { db: connectDatabase({ databaseUrl: relay.url, poolSize: 4 }) });
  const slow = await startTestServer(env, { db: connectDatabase({ databaseUrl, poolSize: 4, statementTimeoutMs: 500 }) });
  const locker = connectDatabase({ databaseUrl, poolSize: 1 });
  const admin = { headers: await adminToken(relayed) };
  const author = await userWithRole(relayed, "editor", "sched-author");
  const approver = await userWithRole(relayed, "editor", "sched-approver");
  const call = (who: { headers: Record<string, string> }, method: string, path: string, body?: object) =>
    relayed.call(method, path, { body, headers: who.headers });
  assert.is(
    (await call(admin, "PUT", `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 }))
      .status,
    200,
  );

  let featureCount = 0;
  /** A due Scheduled request that enables one feature, then sets the variants of another. */
  async function dueRequest(): Promise<{ id: number; enabled: string; varied: string }> {
    const [enabled, varied] = [`sched-on-${++featureCount}`, `sched-variants-${featureCount}`];
    for (const name of [enabled, varied]) assert.is((await call(admin, "POST", `${P}/features`, { name })).status, 201);
    const propose = (body: object) => call(author, "POST", `${P}/environments/production/change-requests`, body);
    const id = (await propose({ feature: enabled, action: "updateEnabled", payload: { enabled: true } })).json.id;
    const variants = [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }];
    assert.is((await propose({ feature: varied, action: "patchVariant", payload: { variants } })).json.id, id);
    const move = (who: typeof author, body: object) => call(who, "PUT", `${P}/change-requests/${id}/state`, body);
    assert.is((await move(author, { state: "In review" })).status, 200);
    assert.is((await move(approver, { state: "Approved" })).status, 200);
    assert.is((await move(approver, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000).toISOString() })).status, 200);
    await testDb.kysely
      .updateTable("change_requests")
      .set({ scheduled_at: sql<Date>`now() - interval '1 second'` })
      .where("id", "=", id)
      .execute();
    return { id, enabled, varied };
  }

  /** Holds the row lock every variants write of `feature` queues on, until released. */
  async function lockFeature(feature: string): Promise<{ release(): Promise<void> }> {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding: Promise<void> | undefined;
    await new Promise<void>((locked, failed) => {
      holding = locker.kysely.transaction().execute(async (trx) => {
        await sql`select name from features where name = ${feature} for update`.execute(trx);
        locked();
        await released;
      });
      holding.catch(failed);
    });
    return {
      release: async () => {
        release();
        await holding;
      },
    };
  }

  const stored = (id: number) =>
    testDb.kysely
      .selectFrom("change_requests")
      .select(["state", "schedule_status", "schedule_reason", "schedule_attempts"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const eventCount = async (type: string, where: { feature?: string; id?: number }) =>
    (
      await testDb.kysely
        .selectFrom("events")
        .select("id")
        .where("type", "=", type)
        .$if(where.feature !== undefined, (q) => q.where("feature_name", "=", where.feature as string))
        .$if(where.id !== undefined, (q) => q.where(sql<string>`data->>'id'`, "=", String(where.id)))
        .execute()
    ).length;
  const enabledIn = async (feature: string) =>
    (
      await testDb.kysely
        .selectFrom("feature_environments")
        .select("enabled")
        .where("feature_name", "=", feature)
        .where("environment_name", "=", "production")
        .executeTakeFirst()
    )?.enabled ?? false;
  const variantsOf = async (feature: string) =>
    (await call(admin, "GET", `${P}/features/${feature}/environments/production/variants`)).json.variants.map(
      (v: { name: string }) => v.name,
    );

  /** Still Scheduled and pending after `attempts` transient failures, and neither change applied. */
  async function assertWaiting(request: { id: number; enabled: string; varied: string }, attempts: number): Promise<void> {
    assert.equal(await stored(request.id), {
      state: "Scheduled",
      schedule_status: "pending",
      schedule_reason: null,
      schedule_attempts: attempts,
    });
    const view = (await call(author, "GET", `${P}/change-requests/${request.id}`)).json;
    assert.equal([view.state, view.schedule.status, view.schedule.reason], ["Scheduled", "pending", undefined]);
    assert.is(await enabledIn(request.enabled), false, "the first change was rolled back with the second");
    assert.is(await eventCount("feature-environment-enabled", { feature: request.enabled }), 0);
    assert.equal(await variantsOf(request.varied), []);
    assert.is(await eventCount("change-request-applied", { id: request.id }), 0);
    assert.is(await eventCount("change-request-schedule-failed", { id: request.id }), 0);
  }

  /** Applied once, both changes with it. */
  async function assertApplied(request: { id: number; enabled: string; varied: string }): Promise<void> {
    assert.is((await stored(request.id)).state, "Applied");
    assert.is(await enabledIn(request.enabled), true);
    assert.equal(await variantsOf(request.varied), ["blue"]);
    assert.is(await eventCount("change-request-applied", { id: request.id }), 1);
  }

  const retryLogs = (srv: TestServer, id: number) => srv.logs.filter((l) => l.msg === RETRY_LOG && l.changeRequestId === id);

  test("a statement timeout during a scheduled apply: still Scheduled, nothing applied, applied by the next pass", async () => {
    const request = await dueRequest();
    const lock = await lockFeature(request.varied);
    try {
      await slow.app.scheduler.tick();
      await assertWaiting(request, 1);
      const [logged] = retryLogs(slow, request.id);
      assert.is(logged?.attempts, 1);
      assert.is((logged?.err as { code?: string } | undefined)?.code, "57014", "the log says what failed");

      // A manual apply meeting the same timeout is a transient 503, not a 400 "can no longer be applied".
      const manual = await slow.call("PUT", `${P}/change-requests/${request.id}/state`, {
        body: { state: "Applied" },
        headers: approver.headers,
      });
      assert.equal(
        [manual.status, manual.json.name, manual.headers["retry-after"]],
        [503, "ServiceUnavailable", "5"],
        JSON.stringify(manual.json),
      );
      assert.match(manual.json.message, /took too long/);
      await assertWaiting(request, 1);
    } finally {
      await lock.release();
    }
    await slow.app.scheduler.tick();
    await assertApplied(request);
    assert.not.ok(
      slow.logs.some((l) => l.msg === "unexpected error" || l.msg === "request failed"),
      "no unexpected error was logged",
    );
  });

  test("the scheduler's connection is terminated during the apply: still Scheduled, nothing applied, applied by the next pass", async () => {
    const request = await dueRequest();
    const lock = await lockFeature(request.varied);
    let ticking: Promise<void> | undefined;
    try {
      ticking = relayed.app.scheduler.tick();
      // The apply waits on the test's lock; its backend is the one to kill.
      let pid: number | undefined;
      await until(async () => {
        const { rows } = await sql<{ pid: number }>`
          select pid from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(testDb.kysely);
        pid = rows[0]?.pid;
        return pid !== undefined;
      }, "the scheduled apply to wait on the lock");
      await sql`select pg_terminate_backend(${pid})`.execute(testDb.kysely);
      await ticking;
      await assertWaiting(request, 1);
      assert.is(retryLogs(relayed, request.id).length, 1);
    } finally {
      await lock.release();
      await ticking;
    }
    await relayed.app.scheduler.tick();
    await assertApplied(request);
  });

  test("the database cannot be reached while the scheduler ticks: the pass fails and is logged, the next pass applies", async () => {
    const request = await dueRequest();
    const failedPasses = () => relayed.logs.filter((l) => l.msg === "processing scheduled change requests failed; will retry").length;
    const before = failedPasses();
    await relay.cut();
    try {
      await relayed.app.scheduler.tick();
    } finally {
      await relay.restore();
    }
    assert.is(failedPasses(), before + 1);
    // Nothing was claimed, so nothing counts against the request.
    await assertWaiting(request, 0);
    await relayed.app.scheduler.tick();
    await assertApplied(request);
  });

  test.after(async () => {
    await relayed.close();
    await slow.close();
    await locker.close();
    await relay.close();
    await testDb.close();
  });
}

test.run();
