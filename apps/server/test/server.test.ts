import type { AddressInfo } from "node:net";
import { connectDatabase, migrateToLatest } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import pino from "pino";
import { request } from "undici";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createApp } from "../src/app.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { startTcpRelay } from "./support/tcp-relay.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer, UUID_V4 } from "./support/test-server.ts";

const srv = await startTestServer();

test("GET /health answers while the process is up", async () => {
  const res = await srv.call("GET", "/health");
  assert.equal([res.status, res.json], [200, { status: "ok" }]);
  assert.is(res.headers["x-content-type-options"], "nosniff");
  assert.match(String(res.headers["x-request-id"]), UUID_V4);
});

test("GET /ready answers 200 when the database does", async () => {
  const res = await srv.call("GET", "/ready");
  assert.equal([res.status, res.json], [200, { status: "ready" }]);
});

test("every request is logged with its own request id", async () => {
  const res = await srv.call("GET", "/health");
  const line = srv.logs.find((l) => l.reqId === res.headers["x-request-id"]);
  assert.ok(line, "a log line carries the request id");
  assert.equal([line?.method, line?.url, line?.status], ["GET", "/health", 200]);
});

test("unknown routes are 404 NotFoundError in the one error body", async () => {
  const res = await srv.call("GET", "/api/admin/nothing-here");
  assert.is(res.status, 404);
  assert.is(res.json.name, "NotFoundError");
  assert.match(res.json.id, UUID_V4);
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
});

test("the OpenAPI 3.1 document is served", async () => {
  const res = await srv.call("GET", "/docs/openapi.json");
  assert.is(res.status, 200);
  assert.is(res.json.openapi, "3.1.0");
  assert.ok(res.json.paths["/api/admin/environments"].get);
  assert.ok(res.json.components.schemas.Error);
});

test("the router is served at /trpc with the same error names", async () => {
  const res = await srv.call("GET", "/trpc/environments.list");
  assert.is(res.status, 401);
  assert.is(res.json.error.data.name, "AuthenticationRequired");
  assert.is(res.json.error.data.code, "UNAUTHORIZED");
});

test("a /trpc batch may carry 50 calls; 51 is a 400 that runs none of them", async () => {
  const admin = await adminToken(srv);
  const batch = (n: number) => `/trpc/${Array(n).fill("banners.create").join(",")}?batch=1`;
  const body = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { message: `batched ${i}` }]));
  const count = async () =>
    Number(
      (
        await srv.db.kysely
          .selectFrom("banners")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  const tooMany = await srv.call("POST", batch(51), { body: body(51), headers: admin });
  assert.is(tooMany.status, 400);
  assert.is(tooMany.json.error.data.name, "ValidationError");
  assert.is(await count(), before, "nothing of the refused batch ran");
  const most = await srv.call("POST", batch(50), { body: body(50), headers: admin });
  assert.is(most.status, 200);
  assert.is(most.json.length, 50);
  assert.is(await count(), before + 50);
});

test("configuration: defaults, and a bad value fails with a message naming it", () => {
  const config = loadConfig({});
  assert.is(config.PORT, 4242);
  assert.is(config.DATA_DIR, ".vexil/data");
  assert.is(config.BODY_LIMIT_BYTES, 262_144);
  assert.throws(
    () => loadConfig({ PORT: "http" }),
    (e: Error) => e instanceof ConfigError && /PORT/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ SESSION_SECRET: "short" }),
    (e: Error) => e instanceof ConfigError && /SESSION_SECRET: must be at least 32 characters/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ DATABASE_URL: "mysql://x" }),
    (e: Error) => /DATABASE_URL/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ LOG_LEVEL: "loud" }),
    (e: Error) => /LOG_LEVEL/.test(e.message),
  );
});

test("close() stops accepting connections and closes the database", async () => {
  const own = await startTestServer();
  const { url } = own;
  assert.is((await own.call("GET", "/health")).status, 200);
  await own.close();
  try {
    await request(`${url}/health`);
    assert.unreachable("the server still accepted a connection");
  } catch (error) {
    assert.match(String((error as Error & { code?: string }).code ?? error), /ECONNREFUSED/);
  }
  await own.db.close();
});

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (serverUrl) {
  test("a database that goes away gives 503 and the server recovers by itself", async () => {
    const testDb = await createTestDb();
    const relay = await startTcpRelay(testDb.databaseUrl as string);
    const db = connectDatabase({ databaseUrl: relay.url, poolSize: 2 });
    await migrateToLatest(db.kysely);
    const app = createApp({ config: loadConfig({}), db, log: pino({ level: "silent" }) });
    await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      assert.is((await request(`${base}/ready`)).statusCode, 200);

      await relay.cut();
      const down = await request(`${base}/ready`);
      const body = (await down.body.json()) as { name: string };
      assert.is(down.statusCode, 503);
      assert.is(body.name, "ServiceUnavailable");
      assert.is(down.headers["retry-after"], "5");

      await relay.restore();
      const up = await request(`${base}/ready`);
      await up.body.dump();
      assert.is(up.statusCode, 200);
    } finally {
      await app.close();
      await relay.close();
      await testDb.close();
    }
  });
}

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
