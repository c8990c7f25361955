import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { addChange, moveChangeRequest, createApiToken, createFeature, createUser, RootRole, setChangeRequestConfig } from "@vexil/services";
import { sql } from "kysely";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { until } from "./support/eventually.ts";
import { callUrl } from "./support/test-server.ts";
import { heapGrowthMb, runMixedLoad } from "../load/mixed-load.ts";

// Two instances on one database need a real Postgres: PGlite serves one process.
const serverUrl = process.env.TEST_DATABASE_URL;

async function startInstance(databaseUrl: string): Promise<{ app: App; url: string }> {
  const db = connectDatabase({ databaseUrl, poolSize: 4 });
  const config = loadConfig({
    SESSION_SECRET: "one secret shared by both instances!!",
    TRUST_PROXY: "127.0.0.1",
    SCHEDULER_INTERVAL_MS: "100",
    PASSWORD_WORKERS: "1",
  });
  const app = createApp({ config, db, log: pino({ level: "silent" }) });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const call = (url: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  callUrl(url, method, path, { headers, body });

if (serverUrl) {
  const testDb = await createTestDb();
  const a = await startInstance(testDb.databaseUrl as string);
  const b = await startInstance(testDb.databaseUrl as string);
  const both = [a.url, b.url];
  const password = "a password for both instances";
  await createUser(testDb.kysely, a.app.deps.hasher, null, { username: "pat", password, rootRole: RootRole.Editor });

  test("sessions: a login on one instance works on the other, a logout on either ends it on both", async () => {
    const login = await call(a.url, "POST", "/auth/simple/login", {}, { username: "pat", password });
    assert.is(login.status, 200);
    const cookie = { cookie: String(login.headers["set-cookie"]).split(";", 1)[0] as string };
    for (let i = 0; i < 6; i++) assert.is((await call(both[i % 2] as string, "GET", "/api/admin/banners", cookie)).status, 200);
    assert.is((await call(b.url, "POST", "/logout", cookie, {})).status, 200);
    // The instance that ended the session forgets it with the commit; the other hears of it from
    // the database (NOTIFY) a moment later, and must within a few seconds at most.
    assert.is((await call(b.url, "GET", "/api/admin/banners", cookie)).status, 401);
    await until(
      async () => (await call(a.url, "GET", "/api/admin/banners", cookie)).status === 401,
      "the other instance to end the session too",
    );
  });

  test("rate limits: failed logins alternating between instances count as one", async () => {
    const from = { "x-forwarded-for": "10.20.30.40" };
    for (let i = 0; i < 10; i++) {
      const res = await call(both[i % 2] as string, "POST", "/auth/simple/login", from, {
        username: `nobody-${i}`,
        password: "wrong password",
      });
      assert.is(res.status, 401, `attempt ${i + 1}`);
    }
    for (const url of both) {
      const res = await call(url, "POST", "/auth/simple/login", from, { username: "pat", password });
      assert.equal([res.status, res.json.name], [429, "TooManyRequests"]);
      assert.ok(Number(res.headers["retry-after"]) >= 1);
    }
    assert.is(
      (await call(a.url, "POST", "/auth/simple/login", { "x-forwarded-for": "10.20.30.41" }, { username: "pat", password })).status,
      200,
      "another address is not limited",
    );
  });

  test("the scheduler: both instances run it, each due change request is applied exactly once", async () => {
    const db = testDb.kysely;
    await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
    const approver = await createUser(db, a.app.deps.hasher, null, { username: "approver", rootRole: RootRole.Admin });
    const asApprover = { kind: "user", userId: approver.id, username: "approver", rootRole: RootRole.Admin, via: "session" } as const;
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const author = await createUser(db, a.app.deps.hasher, null, { username: `sched-author-${i}`, rootRole: RootRole.Editor });
      const by = { kind: "user", userId: author.id, username: `sched-author-${i}`, rootRole: RootRole.Editor, via: "session" } as const;
      ids.push(
        await db.transaction().execute(async (trx) => {
          await createFeature(trx, by, "default", { name: `sched-${i}` });
          const { id } = await addChange(trx, by, {
            projectId: "default",
            environment: "production",
            feature: `sched-${i}`,
            action: "updateEnabled",
            payload: { enabled: true },
          });
          await moveChangeRequest(trx, by, "default", id, { state: "In review" });
          await moveChangeRequest(trx, asApprover, "default", id, { state: "Approved" });
          await moveChangeRequest(trx, asApprover, "default", id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000) });
          return id;
        }),
      );
    }
    // Due now, for both instances' schedulers at once.
    await db.updateTable("change_requests").set({ scheduled_at: sql<Date>`now() - interval '1 second'` }).where("id", "in", ids).execute();
    const appliedCount = async () =>
      (await db.selectFrom("change_requests").select("id").where("id", "in", ids).where("state", "=", "Applied").execute()).length;
    await until(async () => (await appliedCount()) === ids.length, `all ${ids.length} due requests to be applied`, 30_000);
    const events = await db
      .selectFrom("events")
      .select(sql<number>`(data->>'id')::int`.as("id"))
      .where("type", "=", "change-request-applied")
      .execute();
    assert.equal(
      events
        .map((e) => e.id)
        .filter((id) => ids.includes(id))
        .sort((x, y) => x - y),
      [...ids].sort((x, y) => x - y),
      "one applied event per request",
    );
  });

  // How soon is the bench's to say (a change served by another instance within 1 s); this test
  // asserts that it is served at all, through the database's notification.
  test("client API: a change made on one instance is served by the other's snapshot", async () => {
    const admin = {
      authorization: (await createApiToken(testDb.kysely, null, { tokenName: "cf-admin", type: "admin" })).secret,
    };
    const sdk = {
      authorization: (await createApiToken(testDb.kysely, null, { tokenName: "cf-sdk", type: "client", environment: "development" }))
        .secret,
    };
    assert.is((await call(a.url, "POST", "/api/admin/projects/default/features", admin, { name: "two-instances-flag" })).status, 201);
    // B builds its snapshot now, so that the change below must reach it through the database.
    const before = await call(b.url, "GET", "/api/client/features", sdk);
    const served = (res: typeof before) => res.json.features.find((f: { name: string }) => f.name === "two-instances-flag")?.enabled;
    assert.is(served(before), false);
    assert.is(
      (await call(a.url, "POST", "/api/admin/projects/default/features/two-instances-flag/environments/development/on", admin)).status,
      200,
    );
    await until(async () => served(await call(b.url, "GET", "/api/client/features", sdk)) === true, "B to serve the change");
    const etag = (await call(b.url, "GET", "/api/client/features", sdk)).headers.etag as string;
    assert.is(
      (await call(a.url, "GET", "/api/client/features", { ...sdk, "if-none-match": etag })).status,
      304,
      "both instances give the same content the same ETag",
    );
  });

  test("a mixed load alternating between the two instances: no errors", async () => {
    const token = await createApiToken(testDb.kysely, null, { tokenName: "two", type: "admin" });
    const result = await runMixedLoad({
      urls: both,
      rate: 40,
      durationMs: 5_000,
      adminToken: token.secret,
      login: { username: "pat", password },
    });
    console.log(
      `two instances: ${result.requests} requests alternating, ${result.errors} errors, p99 ${result.p99Ms} ms, heap growth ${heapGrowthMb(result.heapSamplesMb)} MiB`,
    );
    assert.equal(result.errorSamples, []);
  });

  test.after(async () => {
    await a.app.close();
    await b.app.close();
    await testDb.close();
  });
}

test.run();
