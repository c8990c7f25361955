// The mixed load as a script: `pnpm --filter @vexil/server load` runs it for 60 s on an embedded
// database (or DATABASE_URL); VEXIL_LOAD_SECONDS and VEXIL_LOAD_RATE change the length and rate.
import type { AddressInfo } from "node:net";
import { connectDatabase, migrateToLatest } from "@vexil/db";
import { createApiToken, createUser, RootRole } from "@vexil/services";
import pino from "pino";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { heapGrowthMb, runMixedLoad } from "./mixed-load.ts";

const seconds = Number(process.env.VEXIL_LOAD_SECONDS || 60);
const rate = Number(process.env.VEXIL_LOAD_RATE || 50);
const MAX_HEAP_GROWTH_MB = 16;

const db = connectDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory://" });
await migrateToLatest(db.kysely);
const app = createApp({ config: loadConfig({ SCHEDULER_INTERVAL_MS: "0", PASSWORD_WORKERS: "1" }), db, log: pino({ level: "silent" }) });
await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const token = await createApiToken(db.kysely, null, { tokenName: `load-${Date.now()}`, type: "admin" });
const username = `load-${Date.now()}`;
await createUser(db.kysely, app.deps.hasher, null, { username, password: "load test password", rootRole: RootRole.Viewer });

const result = await runMixedLoad({
  urls: [url],
  rate,
  durationMs: seconds * 1000,
  adminToken: token.secret,
  login: { username, password: "load test password" },
});
await app.close();
const growth = heapGrowthMb(result.heapSamplesMb);
console.log(JSON.stringify({ seconds, rate, ...result, heapGrowthMb: growth }, null, 1));
process.exit(result.errors === 0 && growth < MAX_HEAP_GROWTH_MB ? 0 : 1);
