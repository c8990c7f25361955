import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { createAddon, createApiToken } from "@vexil/services";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { until } from "./support/eventually.ts";
import { startServerProcess } from "./support/server-process.ts";
import { callUrl } from "./support/test-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts";

// Several processes on one database, and a crash under them, need a real Postgres (docs/webhooks.md#the-outbox).
const serverUrl = process.env.TEST_DATABASE_URL;

const FAST = {
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_RETRY_MAX_MS: "1000",
  WEBHOOK_POLL_INTERVAL_MS: "200",
  // A claim comes back after twice this: what a killed instance was sending is sent again by the next.
  WEBHOOK_TIMEOUT_MS: "1000",
  // The receiver listens on 127.0.0.1.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
};
const RECEIVER_ON_LOOPBACK = { allowPrivateTargets: true };

/** The keys the receiver should have: one per stored event the integration listens to. */
async function expectedKeys(db: ReturnType<typeof connectDatabase>["kysely"], addonId: number): Promise<Set<string>> {
  const rows = await db.selectFrom("addon_deliveries").select("event_id").where("addon_id", "=", addonId).execute();
  return new Set(rows.map((r) => `vexil-${addonId}-${r.event_id}`));
}

async function allDelivered(db: ReturnType<typeof connectDatabase>["kysely"], addonId: number): Promise<boolean> {
  const pending = await db
    .selectFrom("addon_deliveries")
    .select("id")
    .where("addon_id", "=", addonId)
    .where("state", "<>", "delivered")
    .execute();
  return pending.length === 0;
}

function arrivedOnce(receiver: WebhookReceiver, expected: Set<string>): { unique: number; total: number; unknown: number } {
  const keys = receiver.received.map((r) => String(r.headers["idempotency-key"]));
  return {
    unique: new Set(keys.filter((k) => expected.has(k))).size,
    total: keys.length,
    unknown: keys.filter((k) => !expected.has(k)).length,
  };
}

if (serverUrl) {
  test("SIGKILL mid-burst: every committed event arrives after the restart, once by idempotency key", async () => {
    const testDb = await createTestDb();
    const db = testDb.kysely;
    const receiver = await startWebhookReceiver();
    const adminSecret = "*:*.webhook-kill-test-admin-token";
    const addon = await createAddon(
      db,
      null,
      { provider: "webhook", parameters: { url: receiver.url }, events: ["feature-created"] },
      RECEIVER_ON_LOOPBACK,
    );
    const env = { DATABASE_URL: testDb.databaseUrl as string, INIT_ADMIN_API_TOKENS: adminSecret, PASSWORD_WORKERS: "1", ...FAST };
    let proc = await startServerProcess(env);
    const base = proc.url;
    let acknowledged = 0;
    let dead = false;
    const refused: number[] = [];
    const loop = async (n: number) => {
      for (let i = 0; !dead; i++) {
        let status: number;
        try {
          status = (
            await callUrl(base, "POST", "/api/admin/projects/default/features", {
              headers: { authorization: adminSecret },
              body: { name: `kill-${n}-${i}` },
            })
          ).status;
        } catch {
          // The connection died with the process: not acknowledged, so it may or may not have been stored.
          dead = true;
          return;
        }
        if (status === 201) acknowledged++;
        else refused.push(status);
      }
    };
    const load = [1, 2, 3, 4].map(loop);
    // Killed while writes and deliveries are both in flight: after some deliveries arrived.
    await until(() => acknowledged >= 40 && receiver.received.length >= 5, "writes and deliveries before the kill", 60_000);
    await proc.kill();
    dead = true;
    await Promise.all(load);
    assert.equal(refused, [], "no write was refused before the kill");
    const arrivedBeforeRestart = receiver.received.length;

    proc = await startServerProcess(env);
    try {
      await until(() => allDelivered(db, addon.id), "every delivery after the restart", 60_000);
      const expected = await expectedKeys(db, addon.id);
      const created = await db.selectFrom("events").select("id").where("type", "=", "feature-created").execute();
      assert.is(expected.size, created.length, "every committed event was queued with it");
      assert.ok(expected.size >= acknowledged, "acknowledged writes all queued");
      const seen = arrivedOnce(receiver, expected);
      assert.is(seen.unique, expected.size, "every event arrived");
      assert.is(seen.unknown, 0);
      console.log(
        `webhooks after SIGKILL: ${expected.size} events, ${acknowledged} acknowledged, ${arrivedBeforeRestart} arrived before the restart, ${seen.total} requests (${seen.total - seen.unique} repeated, told apart by idempotency key)`,
      );
    } finally {
      await proc.stop();
      await receiver.close();
      await testDb.close();
    }
  });

  test("two instances on one database deliver each event once", async () => {
    const testDb = await createTestDb();
    const receiver = await startWebhookReceiver();
    const addon = await createAddon(
      testDb.kysely,
      null,
      { provider: "webhook", parameters: { url: receiver.url }, events: ["feature-created"] },
      RECEIVER_ON_LOOPBACK,
    );
    const token = await createApiToken(testDb.kysely, null, { tokenName: "two", type: "admin" });
    const start = async (): Promise<{ app: App; url: string }> => {
      const config = loadConfig({
        SESSION_SECRET: "one secret shared by both instances!!",
        PASSWORD_WORKERS: "1",
        ...FAST,
        WEBHOOK_TIMEOUT_MS: "10000",
      });
      const app = createApp({
        config,
        db: connectDatabase({ databaseUrl: testDb.databaseUrl as string, poolSize: 4 }),
        log: pino({ level: "silent" }),
      });
      await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
      return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    };
    const a = await start();
    const b = await start();
    try {
      const writes = Array.from({ length: 60 }, (_, i) =>
        callUrl(i % 2 ? a.url : b.url, "POST", "/api/admin/projects/default/features", {
          headers: { authorization: token.secret },
          body: { name: `two-${i}` },
        }),
      );
      for (const res of await Promise.all(writes)) assert.is(res.status, 201);
      await until(() => allDelivered(testDb.kysely, addon.id), "every delivery", 30_000);
      const expected = await expectedKeys(testDb.kysely, addon.id);
      assert.is(expected.size, 60);
      const seen = arrivedOnce(receiver, expected);
      assert.is(seen.unique, 60, "every event arrived");
      assert.is(seen.total, 60, "each exactly once: every delivery was claimed by one instance");
    } finally {
      await a.app.close();
      await b.app.close();
      await receiver.close();
      await testDb.close();
    }
  });
} else {
  test("webhooks across instances need TEST_DATABASE_URL (a real Postgres); skipped", () => {});
}

test.run();
