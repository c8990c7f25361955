import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { createPasswordHasher } from "@vexil/password-hasher";
import {
  addChange,
  moveChangeRequest,
  createApiToken,
  createFeature,
  createPersonalToken,
  createUser,
  RootRole,
  setChangeRequestConfig,
} from "@vexil/services";
import { sql } from "kysely";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { until } from "./support/eventually.ts";
import { startServerProcess } from "./support/server-process.ts";
import { startTcpRelay } from "./support/tcp-relay.ts";
import { callUrl, startTestServer } from "./support/test-server.ts";

// Each fault needs a real Postgres to lose, kill under or slow down; PGlite runs none of them.
const serverUrl = process.env.TEST_DATABASE_URL;
const counts = { faults: 0, acknowledgedWritesChecked: 0, lost: 0 };

const send = (base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  callUrl(base, method, path, { headers, body });

if (serverUrl) {
  test("Postgres gone during load: 503 ServiceUnavailable with Retry-After, /ready 503, no crash, recovery without a restart", async () => {
    const testDb = await createTestDb();
    const relay = await startTcpRelay(testDb.databaseUrl as string);
    const db = connectDatabase({ databaseUrl: relay.url, poolSize: 4 });
    const token = await createApiToken(testDb.kysely, null, { tokenName: "load", type: "admin" });
    const app = createApp({ config: loadConfig({ SCHEDULER_INTERVAL_MS: "0" }), db, log: pino({ level: "silent" }) });
    await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const auth = { authorization: token.secret };

    type Phase = "up" | "down" | "recovered";
    let phase: Phase = "up";
    let stop = false;
    const seen: Record<Phase, Record<string, number>> = { up: {}, down: {}, recovered: {} };
    const bad: string[] = [];
    const created: number[] = [];
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const startedIn = phase;
        const res =
          i % 3 === 0
            ? await send(base, "POST", "/api/admin/banners", auth, { message: `load ${n}-${i}` })
            : await send(base, "GET", "/api/admin/banners", auth);
        const endedIn = phase;
        const key = res.status === 503 ? `503 ${res.json.name} retry-after=${res.headers["retry-after"]}` : String(res.status);
        seen[endedIn][key] = (seen[endedIn][key] ?? 0) + 1;
        if (res.status === 201) created.push(res.json.id);
        // Anything but a success only for a request that lived through the outage, and then only the documented 503.
        const overlapped = startedIn === "down" || endedIn === "down" || startedIn !== endedIn;
        if (res.status >= 300 && !(overlapped && key === "503 ServiceUnavailable retry-after=5"))
          bad.push(`${startedIn}->${endedIn}: ${res.status} ${JSON.stringify(res.json)}`);
      }
    };
    try {
      const workers = [1, 2, 3, 4].map(worker);
      await until(() => (seen.up["200"] ?? 0) + (seen.up["201"] ?? 0) >= 40, "load before the outage", 30_000);
      phase = "down";
      await relay.cut();
      counts.faults++;
      await until(
        () => Object.keys(seen.down).some((k) => k.startsWith("503")) && Object.values(seen.down).reduce((a, b) => a + b, 0) >= 40,
        "503s during the outage",
        30_000,
      );
      const ready = await send(base, "GET", "/ready", {});
      assert.equal([ready.status, ready.json.name, ready.headers["retry-after"]], [503, "ServiceUnavailable", "5"]);
      assert.equal((await send(base, "GET", "/health", {})).status, 200, "the process is up");

      await relay.restore();
      await until(async () => (await send(base, "GET", "/ready", {})).status === 200, "/ready after the database is back", 30_000);
      phase = "recovered";
      await until(() => (seen.recovered["200"] ?? 0) + (seen.recovered["201"] ?? 0) >= 40, "load after the outage", 30_000);
      stop = true;
      await Promise.all(workers);
      console.log(`faults: database outage under load, ${relay.destroyed} connections cut; responses ${JSON.stringify(seen)}`);
      assert.equal(bad, []);
      assert.ok((seen.down["503 ServiceUnavailable retry-after=5"] ?? 0) > 0);
      const stored = await testDb.kysely.selectFrom("banners").select("id").where("id", "in", created).execute();
      assert.is(stored.length, created.length, "every banner answered 201 is stored");
      counts.acknowledgedWritesChecked += created.length;
    } finally {
      stop = true;
      await app.close();
      await relay.close();
      await testDb.close();
    }
  });

  test("SIGKILL in the middle of banner creates and change-request approvals: every acknowledged write survives, nothing half-applied", async () => {
    const testDb = await createTestDb();
    const db = testDb.kysely;
    const CHAINS = 16;
    const adminSecret = `*:*.${"kill-test-admin-token"}`;
    await setChangeRequestConfig(db, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
    const hasher = createPasswordHasher({ workers: 1, cost: 10 });
    const approver = await createUser(db, hasher, null, { username: "approver", rootRole: RootRole.Editor });
    const approverAsUser = { kind: "user", userId: approver.id, username: "approver", rootRole: RootRole.Editor, via: "session" } as const;
    const pat = await createPersonalToken(db, approverAsUser, { description: "kill", expiresAt: new Date("2099-01-01T00:00:00Z") });
    const requests: { id: number; feature: string; variant: string }[] = [];
    for (let i = 0; i < CHAINS; i++) {
      const author = await createUser(db, hasher, null, { username: `author-${i}`, rootRole: RootRole.Editor });
      const by = { kind: "user", userId: author.id, username: `author-${i}`, rootRole: RootRole.Editor, via: "session" } as const;
      const feature = `kill-${i}`;
      const id = await db.transaction().execute(async (trx) => {
        await createFeature(trx, by, "default", { name: feature });
        const { id } = await addChange(trx, by, {
          projectId: "default",
          environment: "production",
          feature,
          action: "patchVariant",
          payload: { variants: [{ name: `v${i}`, weightType: "variable", stickiness: "default" }] },
        });
        await moveChangeRequest(trx, by, "default", id, { state: "In review" });
        return id;
      });
      requests.push({ id, feature, variant: `v${i}` });
    }
    await hasher.close();
    const env = {
      DATABASE_URL: testDb.databaseUrl as string,
      INIT_ADMIN_API_TOKENS: adminSecret,
      SCHEDULER_INTERVAL_MS: "0",
      PASSWORD_WORKERS: "1",
    };
    let proc = await startServerProcess(env);
    const base = proc.url;

    const ackedBanners = new Map<number, string>();
    const ackedStates = new Map<number, string>();
    let acknowledged = 0;
    let dead = false;
    const attempt = async (method: string, path: string, headers: Record<string, string>, body: unknown) => {
      if (dead) return undefined;
      try {
        return await send(base, method, path, headers, body);
      } catch {
        // The connection died with the process: not acknowledged, so it may or may not have happened.
        dead = true;
        return undefined;
      }
    };
    const bannerLoop = async (n: number) => {
      for (let i = 0; !dead; i++) {
        const message = `burst ${n}-${i}`;
        const res = await attempt("POST", "/api/admin/banners", { authorization: adminSecret }, { message });
        if (res?.status === 201) {
          ackedBanners.set(res.json.id, message);
          acknowledged++;
        } else if (res) assert.unreachable(`a banner create answered ${res.status}`);
      }
    };
    const chain = async ({ id }: { id: number }) => {
      for (const state of ["Approved", "Applied"]) {
        const res = await attempt(
          "PUT",
          `/api/admin/projects/default/change-requests/${id}/state`,
          { authorization: pat.secret },
          { state },
        );
        if (res?.status !== 200) return;
        ackedStates.set(id, state);
        acknowledged++;
      }
    };
    const load = [...[1, 2, 3, 4].map(bannerLoop), ...requests.map(chain)];
    // Kill while writes are in flight: after some were acknowledged, long before all are.
    await until(() => acknowledged >= 30, "acknowledged writes before the kill", 60_000);
    await proc.kill();
    counts.faults++;
    dead = true;
    await Promise.all(load);

    proc = await startServerProcess(env);
    try {
      const admin = { authorization: adminSecret };
      assert.is((await send(proc.url, "GET", "/ready", {})).status, 200);
      const banners = new Map<number, string>(
        (await send(proc.url, "GET", "/api/admin/banners", admin)).json.banners.map((b: { id: number; message: string }) => [
          b.id,
          b.message,
        ]),
      );
      for (const [id, message] of ackedBanners) {
        counts.acknowledgedWritesChecked++;
        if (banners.get(id) !== message) counts.lost++;
        assert.is(banners.get(id), message, `acknowledged banner ${id} is there after the restart`);
      }
      const bannerEvents = await db
        .selectFrom("events")
        .select(sql<number>`(data->>'id')::int`.as("id"))
        .where("type", "=", "banner-created")
        .execute();
      assert.equal(
        bannerEvents.map((e) => e.id).sort((a, b) => a - b),
        [...banners.keys()].sort((a, b) => a - b),
        "every stored banner has its event, and no event its missing banner",
      );

      for (const { id, feature, variant } of requests) {
        const cr = (await send(proc.url, "GET", `/api/admin/projects/default/change-requests/${id}`, admin)).json;
        const variants = (
          await send(proc.url, "GET", `/api/admin/projects/default/features/${feature}/environments/production/variants`, admin)
        ).json.variants;
        const events = await db
          .selectFrom("events")
          .select("type")
          .where(sql`coalesce(data->>'id', data->>'changeRequestId')`, "=", String(id))
          .where("type", "like", "change-request-%")
          .execute();
        const types = events.map((e) => e.type);
        const acked = ackedStates.get(id);
        if (acked) counts.acknowledgedWritesChecked += acked === "Applied" ? 2 : 1;
        if (acked === "Applied") assert.is(cr.state, "Applied", `acknowledged apply of ${id}`);
        if (acked === "Approved") assert.ok(["Approved", "Applied"].includes(cr.state), `acknowledged approval of ${id}`);
        if (acked && !(cr.state === acked || (acked === "Approved" && cr.state === "Applied"))) counts.lost++;
        // Whole or not at all: the state, its reviews, the variants and the events move together.
        if (cr.state === "Applied") {
          assert.equal(
            variants.map((v: { name: string }) => v.name),
            [variant],
          );
          assert.is(types.filter((t) => t === "change-request-applied").length, 1);
        } else {
          assert.equal(variants, [], `${id} in ${cr.state} changed no variants`);
          assert.not.ok(types.includes("change-request-applied"));
        }
        assert.is(cr.approvals.length >= 1, ["Approved", "Applied"].includes(cr.state), `${id}: approvals match the state ${cr.state}`);
        assert.is(
          types.includes("change-request-approved"),
          ["Approved", "Applied"].includes(cr.state),
          `${id}: approval event matches the state ${cr.state}`,
        );
      }
      console.log(
        `faults: SIGKILL mid-burst after ${acknowledged} acknowledged writes (${ackedBanners.size} banners, ${[...ackedStates.values()].filter((s) => s === "Approved").length} approvals and ${[...ackedStates.values()].filter((s) => s === "Applied").length} applies); ${counts.lost} lost`,
      );
    } finally {
      await proc.stop();
      await testDb.close();
    }
  });

  test("a slow database: a statement past DATABASE_STATEMENT_TIMEOUT_MS is a clean 503 and changes nothing", async () => {
    const testDb = await createTestDb();
    const slowDb = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 2, statementTimeoutMs: 500 });
    const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" }, { db: slowDb });
    const token = await createApiToken(slowDb.kysely, null, { tokenName: "slow", type: "admin" });
    const auth = { authorization: token.secret };
    // The test holds a lock every banner statement needs, so each of them outlives the timeout.
    const lockerDb = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 1 });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding: Promise<void> | undefined;
    try {
      await new Promise<void>((locked, failed) => {
        holding = lockerDb.kysely.transaction().execute(async (trx) => {
          await sql`lock table banners in access exclusive mode`.execute(trx);
          locked();
          await released;
        });
        holding.catch(failed);
      });
      counts.faults++;
      const read = await srv.call("GET", "/api/admin/banners", { headers: auth });
      const write = await srv.call("POST", "/api/admin/banners", { body: { message: "slow" }, headers: auth });
      for (const res of [read, write]) {
        assert.equal([res.status, res.json.name, res.headers["retry-after"]], [503, "ServiceUnavailable", "5"], JSON.stringify(res.json));
        assert.match(res.json.message, /took too long/);
      }
      assert.is((await srv.call("GET", "/api/admin/environments", { headers: auth })).status, 200, "what needs no lock still works");
      release();
      await holding;
      const after = await srv.call("GET", "/api/admin/banners", { headers: auth });
      assert.equal([after.status, after.json.banners], [200, []], "the timed-out create stored nothing");
      assert.not.ok(
        srv.logs.some((l) => l.msg === "unexpected error" || l.msg === "request failed"),
        "no unexpected error was logged",
      );
    } finally {
      release();
      await holding?.catch(() => {});
      await lockerDb.close();
      await srv.close();
      await testDb.close();
    }
  });

  test.after(() => {
    console.log(`faults: ${counts.faults} injected, ${counts.acknowledgedWritesChecked} acknowledged writes checked, ${counts.lost} lost`);
  });
}

test.run();
