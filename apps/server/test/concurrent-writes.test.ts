import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { createApiToken, createFeature } from "@vexil/services";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { runWriteLoad, type WriteLoadResult } from "../load/write-load.ts";
import { callUrl } from "./support/test-server.ts";

// Concurrent writers need a real Postgres: PGlite serves one connection, so nothing would ever wait.
const serverUrl = process.env.TEST_DATABASE_URL;
const SECONDS = Number(process.env.VEXIL_CONCURRENT_WRITES_SECONDS || 30);
const FLAGS = 200;
const WORKERS = 8;

async function startInstance(databaseUrl: string): Promise<{ app: App; url: string }> {
  const config = loadConfig({
    SESSION_SECRET: "one secret shared by both instances!!",
    PASSWORD_WORKERS: "1",
    HOUSEKEEPING_INTERVAL_MS: "0",
    // Every second rather than every 10: more flushes of `last_seen_at` meet the writers.
    METRICS_FLUSH_INTERVAL_MS: "1000",
  });
  const db = connectDatabase({
    databaseUrl,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const app = createApp({ config, db, log: pino({ level: "silent" }) });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** The statuses the served OpenAPI document declares for each kind of write the load makes. */
async function documentedStatuses(url: string): Promise<Record<string, string[]>> {
  const doc = (await callUrl(url, "GET", "/docs/openapi.json")).json;
  const declared = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
  const feature = "/api/admin/projects/{projectId}/features/{featureName}";
  return {
    toggle: declared(`${feature}/environments/{environment}/on`, "post"),
    patch: declared(feature, "patch"),
    tag: declared("/api/admin/features/{featureName}/tags", "put"),
    metrics: declared("/api/client/metrics", "post"),
  };
}

function assertNoFailures(result: WriteLoadResult, documented: Record<string, string[]>): void {
  assert.equal(result.serverErrors, [], "no answer with a status of 500 or more");
  for (const [key, count] of Object.entries(result.byStatus)) {
    const [kind, status] = key.split(" ") as [string, string];
    assert.ok(
      status.startsWith("2") || (status.startsWith("4") && documented[kind]?.includes(status)),
      `${count} ${kind} writes answered ${status}, which its route does not document: ${result.refusals.join("\n")}`,
    );
  }
}

if (!serverUrl) {
  console.log("concurrent-writes: skipped, it needs a real Postgres (set TEST_DATABASE_URL); PGlite serves one connection at a time.");
} else if (process.env.VEXIL_CONCURRENT_WRITES === "0") {
  console.log("concurrent-writes: skipped (VEXIL_CONCURRENT_WRITES=0).");
} else {
  const testDb = await createTestDb();
  const databaseUrl = testDb.databaseUrl as string;
  const admin = await createApiToken(testDb.kysely, null, { tokenName: "concurrent-admin", type: "admin" });
  const sdk = await createApiToken(testDb.kysely, null, {
    tokenName: "concurrent-sdk",
    type: "client",
    projects: ["default"],
    environment: "development",
  });
  const flags = Array.from({ length: FLAGS }, (_, i) => `concurrent-${String(i).padStart(3, "0")}`);
  for (const name of flags) await createFeature(testDb.kysely, null, "default", { name });

  const run = async (instances: number) => {
    const started = await Promise.all(Array.from({ length: instances }, () => startInstance(databaseUrl)));
    try {
      const documented = await documentedStatuses(started[0]?.url as string);
      const result = await runWriteLoad({
        urls: started.map((s) => s.url),
        adminToken: admin.secret,
        clientToken: sdk.secret,
        flags,
        workers: WORKERS,
        durationMs: SECONDS * 1000,
        metricsEveryMs: 1000,
      });
      console.log(
        `${instances} instance(s), ${SECONDS} s: ${result.writes} writes (${result.writesPerSecond.toFixed(0)}/s, p99 ${result.p99Ms} ms), ${result.metricsPosts} metrics posts; ${JSON.stringify(result.byStatus)}`,
      );
      assert.ok(result.writes > 0 && result.metricsPosts > 0);
      assertNoFailures(result, documented);
    } finally {
      for (const { app } of started) await app.close();
    }
  };

  test(`${WORKERS} people toggling, patching and tagging ${FLAGS} flags while an SDK reports, on one instance: no 5xx`, () => run(1));
  test(`the same through two instances on one database: no 5xx`, () => run(2));

  test.after(() => testDb.close());
}

test.run();
