import type { AddressInfo } from "node:net";
import { createTestDb } from "@vexil/db/testing";
import { createApiToken, createUser, RootRole } from "@vexil/services";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { heapGrowthMb, runMixedLoad } from "../load/mixed-load.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";

// The CI-sized run of load/run-mixed-load.ts (60 s there); VEXIL_LOAD_SECONDS makes it longer.
const SECONDS = Number(process.env.VEXIL_LOAD_SECONDS || 12);
const RATE = Number(process.env.VEXIL_LOAD_RATE || 50);
const MAX_HEAP_GROWTH_MB = 8;

test(`a fixed-rate mixed workload (${RATE}/s for ${SECONDS} s): no errors, flat memory`, async () => {
  const db = await createTestDb();
  // A silent logger: the test server's in-memory log would itself be the growth we look for.
  const app = createApp({ config: loadConfig({ SCHEDULER_INTERVAL_MS: "0", PASSWORD_WORKERS: "1" }), db, log: pino({ level: "silent" }) });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = await createApiToken(db.kysely, null, { tokenName: "load", type: "admin" });
    await createUser(db.kysely, app.deps.hasher, null, {
      username: "load-user",
      password: "load test password",
      rootRole: RootRole.Viewer,
    });
    const result = await runMixedLoad({
      urls: [url],
      rate: RATE,
      durationMs: SECONDS * 1000,
      adminToken: token.secret,
      login: { username: "load-user", password: "load test password" },
    });
    const growth = heapGrowthMb(result.heapSamplesMb);
    console.log(
      `load: ${result.requests} requests in ${SECONDS} s, ${result.errors} errors, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, heap after GC ${result.heapSamplesMb[0]} -> ${result.heapSamplesMb.at(-1)} MiB (growth after warm-up ${growth} MiB)`,
    );
    assert.equal(result.errorSamples, []);
    assert.is(result.errors, 0);
    assert.ok(result.requests >= RATE * SECONDS * 0.95, `the rate was kept (${result.requests} requests)`);
    assert.ok(growth < MAX_HEAP_GROWTH_MB, `heap grew ${growth} MiB after warm-up`);
    const stored = await db.kysely
      .selectFrom("banners")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    assert.is(Number(stored.n), result.byKind["create banner"], "every banner create was stored");
  } finally {
    await app.close();
  }
});

test.run();
