import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { createApiToken } from "@vexil/services";
import { sql } from "kysely";
import pino from "pino";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { sdkChangedUntil } from "./support/sdk-changed-until.ts";
import { nextEvent, openSse } from "./support/sse-stream.ts";
import { callUrl } from "./support/test-server.ts";

// Two instances on one database need a real Postgres: PGlite serves one process.
const serverUrl = process.env.TEST_DATABASE_URL;

interface Instance {
  app: App;
  url: string;
  logs: Record<string, unknown>[];
}

async function startInstance(databaseUrl: string): Promise<Instance> {
  const db = connectDatabase({ databaseUrl, poolSize: 4 });
  const config = loadConfig({ SESSION_SECRET: "one secret shared by both instances!!", PASSWORD_WORKERS: "1", SCHEDULER_INTERVAL_MS: "0" });
  const logs: Record<string, unknown>[] = [];
  const app = createApp({
    config,
    db,
    log: pino({ level: "warn", base: undefined }, { write: (line: string) => logs.push(JSON.parse(line)) }),
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, logs };
}

if (serverUrl) {
  const testDb = await createTestDb();
  const a = await startInstance(testDb.databaseUrl as string);
  // B's connections carry a name of their own, so that the test finds B's notification connection.
  const bUrl = new URL(testDb.databaseUrl as string);
  bUrl.searchParams.set("application_name", "vexil-instance-b");
  const b = await startInstance(bUrl.toString());
  const admin = {
    authorization: (await createApiToken(testDb.kysely, null, { tokenName: "two-admin", type: "admin" })).secret,
  };
  const sdkToken = (await createApiToken(testDb.kysely, null, { tokenName: "two-sdk", type: "client", environment: "development" })).secret;
  const onA = (method: string, path: string, body?: unknown) =>
    callUrl(a.url, method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  const env = (feature: string) => `/api/admin/projects/default/features/${feature}/environments/development`;

  test("an SDK streaming from B sees a change written through A; with B's notification connection killed, it still converges", async () => {
    assert.is((await onA("POST", "/api/admin/projects/default/features", { name: "two.stream" })).status, 201);
    assert.is((await onA("POST", "/api/admin/projects/default/features", { name: "two.missed" })).status, 201);
    const unleash = new Unleash({
      url: `${b.url}/api/`,
      appName: "two-instances",
      customHeaders: { Authorization: sdkToken },
      disableMetrics: true,
      refreshInterval: 60_000,
      experimentalMode: { type: "streaming" },
    });
    unleash.on("error", (error) => assert.unreachable(String(error)));
    try {
      await once(unleash, "synchronized");
      assert.is(b.app.deps.clientStreams?.size, 1, "the SDK streams from B");
      assert.is(unleash.isEnabled("two.stream"), false);

      assert.is((await onA("POST", `${env("two.stream")}/on`)).status, 200);
      await sdkChangedUntil(unleash, () => unleash.isEnabled("two.stream"), "the change made on A");

      // B's LISTEN connection goes away; the change below is notified while nobody on B hears it.
      const found = await sql<{ pid: number }>`
        select pid from pg_stat_activity where application_name = 'vexil-instance-b' and query = 'listen "vexil_flag_changes"'`.execute(
        testDb.kysely,
      );
      assert.ok(found.rows.length >= 1, "B's notification connection was found");
      for (const { pid } of found.rows)
        assert.ok((await sql<{ done: boolean }>`select pg_terminate_backend(${pid}) as done`.execute(testDb.kysely)).rows[0]?.done);
      assert.is((await onA("POST", `${env("two.missed")}/on`)).status, 200);
      await sdkChangedUntil(unleash, () => unleash.isEnabled("two.missed"), "the change made while B was not listening");
      assert.ok(
        b.logs.some((l) => String(l.msg).startsWith("lost the database connection that hears flag changes")),
        "B noticed the lost connection (so the change came through its catch-up)",
      );
      assert.is(b.app.deps.clientStreams?.size, 1, "the SDK kept its one stream");
    } finally {
      unleash.destroy();
    }
  });

  test("a client token deleted through A ends its stream on B", async () => {
    const made = await onA("POST", "/api/admin/api-tokens", { tokenName: "two-revoked", type: "client", environment: "development" });
    const s = await openSse(`${b.url}/api/client/streaming`, { authorization: made.json.secret });
    assert.is((await nextEvent(s)).event, "unleash-connected");
    assert.is((await onA("DELETE", `/api/admin/api-tokens/${made.json.id}`)).status, 200);
    assert.is(await s.ended, "end", "B ended the stream");
    const again = await callUrl(b.url, "GET", "/api/client/streaming", { headers: { authorization: made.json.secret } });
    assert.is(again.status, 401, "and its SDK reconnects to a 401");
  });

  test.after(async () => {
    await a.app.close();
    await b.app.close();
    await testDb.close();
  });
}

test.run();
