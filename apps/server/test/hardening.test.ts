import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { request } from "undici";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { clientToken, frontendToken } from "./support/principals.ts";
import { startServerProcess } from "./support/server-process.ts";
import { type Reply, startTestServer, UUID_V4 } from "./support/test-server.ts";

const ADMIN = { username: "admin", password: "the admin password of these tests" };
const srv = await startTestServer({ ADMIN_PASSWORD: ADMIN.password });

test("security headers on every kind of response: nosniff, no X-Powered-By, no-store", async () => {
  const login = await srv.call("POST", "/auth/simple/login", { body: ADMIN });
  const cookie = String(login.headers["set-cookie"]).split(";", 1)[0] as string;
  const replies = {
    health: await srv.call("GET", "/health"),
    document: await srv.call("GET", "/docs/openapi.json"),
    login,
    loginFailed: await srv.call("POST", "/auth/simple/login", { body: { username: "admin", password: "wrong password" } }),
    unauthenticated: await srv.call("GET", "/api/admin/banners"),
    read: await srv.call("GET", "/api/admin/banners", { headers: { cookie } }),
    created: await srv.call("POST", "/api/admin/banners", { body: { message: "hi" }, headers: { cookie } }),
    malformed: await srv.call("POST", "/api/admin/banners", { raw: "{", headers: { cookie, "content-type": "application/json" } }),
    wrongType: await srv.call("POST", "/api/admin/banners", { raw: "x", headers: { cookie, "content-type": "text/plain" } }),
    tooLarge: await srv.call("POST", "/api/admin/banners", {
      raw: JSON.stringify({ message: "x".repeat(300_000) }),
      headers: { cookie, "content-type": "application/json" },
    }),
    notAllowed: await srv.call("DELETE", "/api/admin/banners", { headers: { cookie } }),
    notFound: await srv.call("GET", "/nothing"),
    trpc: await srv.call("GET", `/trpc/banners.list?input=${encodeURIComponent("{}")}`, { headers: { cookie } }),
    logout: await srv.call("POST", "/logout", { body: {}, headers: { cookie } }),
  };
  assert.equal(
    Object.entries(replies).map(([name, r]) => [name, r.status]),
    [
      ["health", 200],
      ["document", 200],
      ["login", 200],
      ["loginFailed", 401],
      ["unauthenticated", 401],
      ["read", 200],
      ["created", 201],
      ["malformed", 400],
      ["wrongType", 415],
      ["tooLarge", 413],
      ["notAllowed", 405],
      ["notFound", 404],
      ["trpc", 200],
      ["logout", 200],
    ],
  );
  for (const [name, res] of Object.entries(replies)) {
    assert.is(res.headers["x-content-type-options"], "nosniff", name);
    assert.is(res.headers["x-powered-by"], undefined, name);
    assert.is(res.headers["cache-control"], "no-store", name);
    assert.is(res.headers["access-control-allow-origin"], undefined, `${name}: CORS is off by default`);
  }
});

test("CORS is off without an allowlist: no header for any origin, and no preflight", async () => {
  const origin = "https://evil.example";
  const simple = await srv.call("GET", "/api/admin/banners", { headers: { origin } });
  const preflight = await srv.call("OPTIONS", "/api/admin/banners", { headers: { origin, "access-control-request-method": "POST" } });
  for (const res of [simple, preflight]) {
    assert.equal(
      Object.keys(res.headers).filter((h) => h.startsWith("access-control-")),
      [],
    );
  }
  assert.ok(preflight.status >= 400 && preflight.status < 500, `a preflight is refused (${preflight.status})`);
});

test("CORS with an allowlist: listed origins only, credentials, and preflights answered", async () => {
  const app = "https://app.example.com";
  const own = await startTestServer({ CORS_ORIGINS: `${app},http://localhost:3000` }, { db: srv.db });
  try {
    const allowed = await own.call("GET", "/api/admin/banners", { headers: { origin: app } });
    assert.equal(
      [
        allowed.status,
        allowed.headers["access-control-allow-origin"],
        allowed.headers["access-control-allow-credentials"],
        allowed.headers.vary,
      ],
      [401, app, "true", "Origin"],
    );
    const preflight = await own.call("OPTIONS", "/api/admin/banners", {
      headers: { origin: app, "access-control-request-method": "POST" },
    });
    assert.is(preflight.status, 204);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
    assert.match(String(preflight.headers["access-control-allow-headers"]), /content-type/);
    for (const origin of ["https://evil.example", "https://app.example.com.evil.example", "null"]) {
      const other = await own.call("GET", "/api/admin/banners", { headers: { origin } });
      assert.is(other.headers["access-control-allow-origin"], undefined, origin);
      const otherPreflight = await own.call("OPTIONS", "/api/admin/banners", {
        headers: { origin, "access-control-request-method": "POST" },
      });
      assert.is(otherPreflight.headers["access-control-allow-origin"], undefined, origin);
      assert.is.not(otherPreflight.status, 204, origin);
    }
  } finally {
    await own.app.server.close();
    await own.app.deps.hasher.close();
    await own.app.scheduler.stop();
  }
});

test("a 304 repeats what a cache updates from its 200 (ETag, Cache-Control, Vary, CORS), without nosniff and x-request-id", async () => {
  // docs/operations.md#response-headers; a browser's polls come from a listed origin.
  const app = "https://app.example.com";
  const own = await startTestServer({ CORS_ORIGINS: app }, { db: srv.db });
  try {
    const browser = { ...(await frontendToken(own)), origin: app };
    const sdk = await clientToken(own);
    const context = { context: { targetingKey: "u1" } };
    const bulk = (headers: Record<string, string>) => own.call("POST", "/ofrep/v1/evaluate/flags", { headers, body: context });
    // Each poll, and the Vary its 200 has: CORS's for a page, the client API's for its gzip.
    const polls: [string, Record<string, string>, string, (headers: Record<string, string>) => Promise<Reply>][] = [
      ["frontend API", browser, "Origin", (headers) => own.call("GET", "/api/frontend?userId=u1", { headers })],
      ["OFREP bulk", browser, "Origin", bulk],
      ["client API", sdk, "accept-encoding", (headers) => own.call("GET", "/api/client/features", { headers })],
    ];
    for (const [name, headers, vary, ask] of polls) {
      const first = await ask(headers);
      const again = await ask({ ...headers, "if-none-match": String(first.headers.etag) });
      assert.equal([first.status, again.status, first.headers.vary], [200, 304, vary], name);
      for (const field of ["etag", "cache-control", "vary", "access-control-allow-origin", "access-control-allow-credentials"]) {
        assert.is(again.headers[field], first.headers[field], `${name}: ${field}`);
      }
      assert.is(again.headers["cache-control"], "no-store", name);
      assert.match(String(first.headers["x-request-id"]), UUID_V4, name);
      assert.equal(
        [first.headers["x-content-type-options"], again.headers["x-content-type-options"], again.headers["x-request-id"]],
        ["nosniff", undefined, undefined],
        name,
      );
    }
  } finally {
    await own.app.server.close();
    await own.app.deps.hasher.close();
    await own.app.scheduler.stop();
  }
});

test("no password, password hash, token secret or cookie value in any response or log line of a whole run", async () => {
  const testDb = await createTestDb();
  const dataDir = testDb.databaseUrl ? undefined : mkdtempSync(join(tmpdir(), "vexil-secrets-"));
  if (dataDir) await testDb.close();
  const initToken = `*:*.${"s3cr3t-init-token-".repeat(2)}`;
  const adminPassword = "admin password of the run";
  const proc = await startServerProcess({
    ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : { DATA_DIR: dataDir as string }),
    INIT_ADMIN_API_TOKENS: initToken,
    ADMIN_PASSWORD: adminPassword,
    SESSION_SECRET: "a session secret of at least 32 characters",
    LOG_LEVEL: "trace",
    PASSWORD_WORKERS: "1",
  });
  const secrets = new Set<string>([initToken, initToken.slice(4), adminPassword, "a session secret of at least 32 characters"]);
  // Bodies and headers that legitimately carry a secret once: a new token's body, login's Set-Cookie.
  const seen: string[] = [];
  let responses = 0;
  const call = async (
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; raw?: string; carriesSecret?: boolean } = {},
  ) => {
    const res = await request(proc.url + path, {
      method: method as "GET",
      headers: { ...(opts.body !== undefined || opts.raw ? { "content-type": "application/json" } : {}), ...opts.headers },
      body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    const text = await res.body.text();
    responses++;
    const json = text ? JSON.parse(text) : undefined;
    if (!opts.carriesSecret) seen.push(text, JSON.stringify({ ...res.headers, "set-cookie": undefined }));
    return { status: res.statusCode, json, headers: res.headers };
  };
  try {
    const admin = { authorization: initToken };
    const userPassword = "the user's first password";
    const newPassword = "the user's second password";
    secrets.add(userPassword).add(newPassword);
    const user = await call("POST", "/api/admin/user-admin", {
      body: { username: "sam", password: userPassword, rootRole: 2 },
      headers: admin,
    });
    assert.is(user.status, 201);

    const login = await call("POST", "/auth/simple/login", { body: { username: "sam", password: userPassword }, carriesSecret: true });
    assert.is(login.status, 200);
    seen.push(JSON.stringify(login.json));
    const cookie = String(login.headers["set-cookie"]).split(";", 1)[0] as string;
    secrets.add(cookie.slice(cookie.indexOf("=") + 1));
    const session = { cookie };

    for (const body of [
      { username: "sam", password: "a wrong password" },
      { username: "nobody", password: "another wrong one" },
      { username: "sam" },
    ]) {
      assert.is((await call("POST", "/auth/simple/login", { body })).status >= 400, true);
    }
    secrets.add("a wrong password").add("another wrong one");
    await call("POST", "/auth/simple/login", { raw: `{"username":"sam","password":"half a password`, carriesSecret: false });
    secrets.add("half a password");

    const token = await call("POST", "/api/admin/api-tokens", {
      body: { tokenName: "ci", type: "admin" },
      headers: admin,
      carriesSecret: true,
    });
    assert.is(token.status, 201);
    secrets.add(token.json.secret).add(token.json.secret.split(".")[1]);
    const pat = await call("POST", "/api/admin/user/tokens", {
      body: { description: "laptop", expiresAt: "2099-01-01T00:00:00.000Z" },
      headers: session,
      carriesSecret: true,
    });
    assert.is(pat.status, 201);
    secrets.add(pat.json.secret).add(pat.json.secret.split(":")[1]);

    for (const headers of [{ authorization: token.json.secret }, { authorization: `Bearer ${pat.json.secret}` }, session, admin]) {
      assert.is((await call("GET", "/api/admin/api-tokens", { headers })).status < 500, true);
      assert.is((await call("GET", "/api/admin/user-admin", { headers })).status < 500, true);
      assert.is((await call("GET", "/api/admin/user/tokens", { headers })).status < 500, true);
      assert.is((await call("GET", "/trpc/apiTokens.list", { headers })).status < 500, true);
    }
    const guessed = "*:*.a-guessed-token-that-does-not-exist";
    secrets.add(guessed);
    assert.is((await call("GET", "/api/admin/banners", { headers: { authorization: guessed } })).status, 401);
    assert.is((await call("GET", "/api/admin/banners", { headers: { cookie: `${cookie}x` } })).status, 401);

    const changed = await call("POST", "/api/admin/user/change-password", {
      body: { password: newPassword, oldPassword: userPassword },
      headers: session,
    });
    assert.is(changed.status, 200);
    assert.is(
      (await call("POST", `/api/admin/user-admin/${user.json.id}/change-password`, { body: { password: "short" }, headers: admin })).status,
      400,
    );
    assert.is(
      (await call("GET", "/api/admin/banners", { headers: { authorization: pat.json.secret } })).status,
      401,
      "a password change revokes the personal tokens",
    );
    assert.is((await call("POST", "/logout", { body: {}, headers: session })).status, 200);
  } finally {
    assert.is(await proc.stop(), 0, "a clean shutdown");
  }

  const db = testDb.databaseUrl ? testDb : connectDatabase({ dataDir });
  try {
    for (const row of await db.kysely.selectFrom("users").select("password_hash").where("password_hash", "is not", null).execute())
      secrets.add(row.password_hash as string);
    for (const row of await db.kysely.selectFrom("api_tokens").select("secret_hash").execute()) secrets.add(row.secret_hash);
  } finally {
    await db.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  const logText = proc.lines.join("\n");
  const responseText = seen.join("\n");
  assert.ok(proc.lines.length > 30, `the run logged (${proc.lines.length} lines)`);
  for (const secret of secrets) {
    assert.not.ok(logText.includes(secret), `a log line carries a secret: ${secret.slice(0, 12)}...`);
    assert.not.ok(responseText.includes(secret), `a response carries a secret: ${secret.slice(0, 12)}...`);
  }
  assert.not.match(logText, /\$2[aby]\$\d\d\$/, "no bcrypt hash in the logs");
  assert.not.match(responseText, /\$2[aby]\$\d\d\$/, "no bcrypt hash in any response");
  console.log(`secrets: ${secrets.size} secrets checked against ${proc.lines.length} log lines and ${responses} responses`);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
