import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createTestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { request } from "undici";
import { buildServer } from "./support/build-server.ts";
import { startServerProcess } from "./support/server-process.ts";

const DIST = new URL("../dist/", import.meta.url);

test("the build is plain JavaScript: no TypeScript loader, no .ts import left", () => {
  buildServer();
  // An import of our TypeScript sources would need tsx at run time.
  for (const name of readdirSync(DIST).filter((n) => n.endsWith(".mjs"))) {
    const code = readFileSync(new URL(name, DIST), "utf8");
    assert.not.match(code, /from\s+"[^"]+\.ts"|import\("[^"]+\.ts"\)|"tsx/, name);
  }
});

test("the built server starts, answers, hashes in its password worker, serves the docs, and stops on SIGTERM", async () => {
  const db = await createTestDb();
  const env: Record<string, string> = db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DATA_DIR: "memory://" };
  const server = await startServerProcess({
    ...env,
    SESSION_SECRET: "a-test-secret-of-at-least-32-chars!",
    ADMIN_PASSWORD: "built-admin-password",
  });
  try {
    assert.ok(existsSync(new URL("password-worker.mjs", DIST)));
    const ready = await request(`${server.url}/ready`);
    assert.equal([ready.statusCode, await ready.body.json()], [200, { status: "ready" }]);
    // The admin was hashed at start and is checked now, both in the worker beside the bundle.
    const login = await request(`${server.url}/auth/simple/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "built-admin-password" }),
    });
    assert.is(login.statusCode, 200);
    await login.body.dump();
    // unleash-client, which the frontend API evaluates with, is required from apps/server's node_modules.
    const cookie = String(login.headers["set-cookie"]).split(";", 1)[0] as string;
    const created = await request(`${server.url}/api/admin/api-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ tokenName: "built-web", type: "frontend", projects: ["default"], environment: "development" }),
    });
    assert.is(created.statusCode, 201);
    const { secret } = (await created.body.json()) as { secret: string };
    const frontend = await request(`${server.url}/api/frontend?userId=u1`, { headers: { authorization: secret } });
    assert.equal([frontend.statusCode, await frontend.body.json()], [200, { toggles: [] }]);
    // Swagger UI from node_modules and the page's own files copied into dist/.
    for (const path of ["/docs", "/docs/assets/swagger-ui-bundle.js", "/docs/assets/vexil-docs.js"]) {
      const res = await request(`${server.url}${path}`);
      assert.is(res.statusCode, 200, path);
      assert.ok((await res.body.text()).length > 0, path);
    }
  } finally {
    const code = await server.stop();
    await db.close();
    assert.is(code, 0, server.lines.join("\n"));
    assert.ok(
      server.lines.some((line) => line.includes("stopped: in-flight requests finished")),
      "the closing line is logged",
    );
  }
});

test.run();
