import { createHash } from "node:crypto";
import { connectDatabase } from "@vexil/db";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { adminToken, clientToken, loginHeaders, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { eventuallyStatus } from "./support/eventually.ts";
import { startTestServer } from "./support/test-server.ts";
import pino from "pino";
import type { AddressInfo } from "node:net";
import { request } from "undici";

const INIT_TOKEN = "*:*.init0123456789abcdef";
const srv = await startTestServer({ INIT_ADMIN_API_TOKENS: INIT_TOKEN });
const admin = await adminToken(srv);
const ADMIN_ROUTE = "/api/admin/user-admin";

test("INIT_ADMIN_API_TOKENS works at once, with or without Bearer", async () => {
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers: { authorization: INIT_TOKEN } })).status, 200);
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers: { authorization: `Bearer ${INIT_TOKEN}` } })).status, 200);
});

test("API tokens: created with the Unleash format, shown once, stored hashed", async () => {
  const created = await srv.call("POST", "/api/admin/api-tokens", { body: { tokenName: "ci", type: "admin" }, headers: admin });
  assert.is(created.status, 201);
  assert.match(created.json.secret, /^\*:\*\.[0-9a-f]{64}$/);
  assert.equal([created.json.tokenName, created.json.type, created.json.projects, created.json.environment], ["ci", "admin", ["*"], "*"]);
  const client = await srv.call("POST", "/api/admin/api-tokens", {
    body: { tokenName: "sdk", type: "client", projects: ["default"], environment: "production" },
    headers: admin,
  });
  assert.match(client.json.secret, /^default:production\.[0-9a-f]{64}$/);

  const listed = await srv.call("GET", "/api/admin/api-tokens", { headers: admin });
  assert.ok(listed.json.tokens.some((t: { id: number }) => t.id === created.json.id));
  assert.not.ok(JSON.stringify(listed.json).includes(created.json.secret.split(".")[1]), "the list never shows a secret");
  const stored = await srv.db.kysely.selectFrom("api_tokens").selectAll().where("id", "=", created.json.id).executeTakeFirstOrThrow();
  assert.not.ok(JSON.stringify(stored).includes(created.json.secret.split(".")[1]), "only a hash is stored");
  assert.match(stored.secret_hash, /^[0-9a-f]{64}$/);
  const event = await srv.db.kysely
    .selectFrom("events")
    .selectAll()
    .where("type", "=", "api-token-created")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  assert.not.ok(JSON.stringify(event.data).includes(created.json.secret.split(".")[1]), "nor in the event");
});

test("each kind of token on an admin route: 200, 403 or 401", async () => {
  const client = await clientToken(srv);
  const frontend = await srv.call("POST", "/api/admin/api-tokens", {
    body: { tokenName: "web", type: "frontend", environment: "development" },
    headers: admin,
  });
  const cases: [string, Record<string, string>, number][] = [
    ["admin token", admin, 200],
    ["client token", client, 403],
    ["frontend token", { authorization: frontend.json.secret }, 403],
    ["unknown token", { authorization: "*:*.0000000000000000000000000000" }, 401],
    ["empty header", { authorization: "Bearer " }, 401],
    ["nobody", {}, 401],
  ];
  for (const [who, headers, status] of cases) {
    const res = await srv.call("GET", "/api/admin/environments", { headers });
    assert.is(res.status, status, who);
  }
  const clientRes = await srv.call("GET", "/api/admin/environments", { headers: client });
  assert.is(clientRes.json.name, "NoAccessError");
  // A refused credential and a missing one are told apart, over REST and tRPC.
  const messages = async (headers: Record<string, string>) => [
    (await srv.call("GET", "/api/admin/environments", { headers })).json.message,
    (await srv.call("GET", "/trpc/environments.list", { headers })).json.error.message,
  ];
  const refused = "The API token sent is not valid: it is unknown, expired or revoked. Send a valid token in the Authorization header.";
  assert.equal(await messages({ authorization: "*:*.0000000000000000000000000000" }), [refused, refused]);
  assert.equal(await messages({ "x-api-key": "default:development.nope" }), [refused, refused]);
  const missing = "You must log in or provide a valid API token to use this resource.";
  assert.equal(await messages({}), [missing, missing]);
  const ended = "Your session has ended or is not valid: log in again.";
  assert.equal(await messages({ cookie: "vexil-session=Fe26.2**not-a-sealed-session" }), [ended, ended]);
});

test("a token for a project that does not exist is refused as an unknown environment is, and nothing is stored", async () => {
  const body = { tokenName: "ghost", type: "client", projects: ["default", "no-such-project"], environment: "development" };
  const res = await srv.call("POST", "/api/admin/api-tokens", { body, headers: admin });
  assert.equal([res.status, res.json.name, res.json.message], [400, "ValidationError", 'There is no project "no-such-project".']);
  const frontend = await srv.call("POST", "/api/admin/api-tokens", { body: { ...body, type: "frontend" }, headers: admin });
  assert.is(frontend.status, 400);
  assert.is((await srv.db.kysely.selectFrom("api_tokens").select("id").where("token_name", "=", "ghost").execute()).length, 0);
  const made = await srv.call("POST", "/api/admin/api-tokens", { body: { ...body, projects: ["default"] }, headers: admin });
  assert.is(made.status, 201);
});

test("client and frontend tokens name one environment: `*` is refused as Unleash refuses it, and one stored so keeps its projects", async () => {
  for (const [type, kind] of [
    ["client", "Client"],
    ["frontend", "Frontend"],
  ]) {
    const res = await srv.call("POST", "/api/admin/api-tokens", { body: { tokenName: "all", type, environment: "*" }, headers: admin });
    assert.equal(
      [res.status, res.json.name, res.json.message],
      [400, "ValidationError", `${kind} token cannot be scoped to all environments`],
    );
  }
  assert.is((await srv.db.kysely.selectFrom("api_tokens").select("id").where("token_name", "=", "all").execute()).length, 0);

  assert.is((await srv.call("POST", "/api/admin/projects/default/features", { body: { name: "in-default" }, headers: admin })).status, 201);
  // A token made before the refusal, scoped to a project with no flags.
  const secret = "elsewhere:*.0123456789abcdef0123456789abcdef";
  await srv.db.kysely
    .insertInto("api_tokens")
    .values({
      type: "client",
      token_name: "legacy",
      secret_hash: createHash("sha256").update(secret).digest("hex"),
      projects: JSON.stringify(["elsewhere"]),
      environment: "*",
    })
    .execute();
  const served = await srv.call("GET", "/api/client/features", { headers: { authorization: secret } });
  assert.equal([served.status, served.json.features], [200, []]);
});

test("a revoked token is 401 at once", async () => {
  const created = await srv.call("POST", "/api/admin/api-tokens", { body: { tokenName: "short-lived", type: "admin" }, headers: admin });
  const headers = { authorization: created.json.secret };
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers })).status, 200);
  assert.is((await srv.call("DELETE", `/api/admin/api-tokens/${created.json.id}`, { headers: admin })).status, 200);
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers })).status, 401);
});

test("personal access tokens act as their user, with that user's permissions", async () => {
  const viewer = await userWithRole(srv, "viewer");
  const pat = await srv.call("POST", "/api/admin/user/tokens", {
    body: { description: "laptop", expiresAt: "2099-01-01T00:00:00.000Z" },
    headers: viewer.headers,
  });
  assert.is(pat.status, 201);
  assert.match(pat.json.secret, /^user:[0-9a-f]{64}$/);
  const headers = { authorization: pat.json.secret };
  assert.is((await srv.call("GET", "/api/admin/environments", { headers })).status, 200);
  const forbidden = await srv.call("GET", ADMIN_ROUTE, { headers });
  assert.equal([forbidden.status, forbidden.json.name], [403, "NoAccessError"]);
  assert.is(forbidden.json.message, 'You need the "ADMIN" permission to perform this action.');
  const mine = await srv.call("GET", "/api/admin/user/tokens", { headers: viewer.headers });
  assert.equal(
    mine.json.pats.map((t: { tokenName: string }) => t.tokenName),
    ["laptop"],
  );

  await srv.db.kysely
    .updateTable("api_tokens")
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where("id", "=", pat.json.id)
    .execute();
  // A change by hand in SQL reaches the credential cache through the database, just after commit.
  await eventuallyStatus(srv, "/api/admin/environments", headers, 401);
  const adminPat = await srv.call("POST", "/api/admin/user/tokens", {
    body: { description: "x", expiresAt: "2099-01-01T00:00:00.000Z" },
    headers: admin,
  });
  assert.is(adminPat.status, 403, "an API token is not a user");
});

test("a personal token cannot mint tokens or change its user's password; a password change needs the current one and revokes the tokens", async () => {
  const user = await userWithRole(srv, "admin");
  const later = "2099-01-01T00:00:00.000Z";
  const noExpiry = await srv.call("POST", "/api/admin/user/tokens", {
    body: { description: "forever", expiresAt: null },
    headers: user.headers,
  });
  assert.equal([noExpiry.status, noExpiry.json.name], [400, "ValidationError"]);
  const pat = await srv.call("POST", "/api/admin/user/tokens", {
    body: { description: "laptop", expiresAt: later },
    headers: user.headers,
  });
  const token = { authorization: pat.json.secret };
  const minted = await srv.call("POST", "/api/admin/user/tokens", { body: { description: "next", expiresAt: later }, headers: token });
  assert.equal([minted.status, minted.json.name], [403, "NoAccessError"]);
  const byToken = await srv.call("POST", "/api/admin/user/change-password", {
    body: { password: "a password of my choosing", oldPassword: TEST_PASSWORD },
    headers: token,
  });
  assert.equal([byToken.status, byToken.json.name], [403, "NoAccessError"]);
  const asAdmin = await srv.call("POST", `/api/admin/user-admin/${user.id}/change-password`, {
    body: { password: "a password of my choosing" },
    headers: token,
  });
  assert.equal([asAdmin.status, asAdmin.json.name], [403, "NoAccessError"], "nor through the Admin's route");
  const wrong = await srv.call("POST", "/api/admin/user/change-password", {
    body: { password: "a password of my choosing", oldPassword: "not my password" },
    headers: user.headers,
  });
  assert.equal([wrong.status, wrong.json.message], [400, "The current password is not right."]);
  assert.is((await srv.call("POST", "/auth/simple/login", { body: { username: user.username, password: TEST_PASSWORD } })).status, 200);

  const other = await loginHeaders(srv, user.username, TEST_PASSWORD);
  const changed = await srv.call("POST", "/api/admin/user/change-password", {
    body: { password: "a password of my choosing", oldPassword: TEST_PASSWORD, confirmPassword: "a password of my choosing" },
    headers: user.headers,
  });
  assert.is(changed.status, 200);
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers: token })).status, 401, "the personal token is revoked");
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers: other })).status, 401, "the other session ended");
  assert.is((await srv.call("GET", ADMIN_ROUTE, { headers: user.headers })).status, 200, "the caller's session stays");
  const left = await srv.db.kysely.selectFrom("api_tokens").select("id").where("user_id", "=", user.id).execute();
  assert.equal(left, []);
});

test("users: create (201, no hash), list, duplicates 409, validation 400, Viewer 403", async () => {
  const created = await srv.call("POST", ADMIN_ROUTE, {
    body: { username: "dana", email: "Dana@Example.com", name: "Dana", password: TEST_PASSWORD, rootRole: 2 },
    headers: admin,
  });
  assert.is(created.status, 201);
  assert.equal(
    [created.json.username, created.json.email, created.json.rootRole, created.json.loginAttempts, created.json.seenAt],
    ["dana", "Dana@Example.com", 2, 0, null],
  );
  const dupName = await srv.call("POST", ADMIN_ROUTE, { body: { username: "dana", rootRole: 3 }, headers: admin });
  assert.equal([dupName.status, dupName.json.name], [409, "NameExistsError"]);
  const otherCase = await srv.call("POST", ADMIN_ROUTE, { body: { username: "DANA", rootRole: 3 }, headers: admin });
  assert.equal([otherCase.status, otherCase.json.message], [409, 'The username "DANA" is taken.'], "one name whatever its case");
  const mixedCase = await srv.call("POST", "/auth/simple/login", { body: { username: "Dana", password: TEST_PASSWORD } });
  assert.equal([mixedCase.status, mixedCase.json.username], [200, "dana"], "and logs in whatever its case");
  const dupEmail = await srv.call("POST", ADMIN_ROUTE, { body: { email: "dana@example.COM", rootRole: 3 }, headers: admin });
  assert.equal([dupEmail.status, dupEmail.json.name], [409, "NameExistsError"]);
  for (const body of [
    { username: "x", rootRole: 4 },
    { rootRole: 3 },
    { username: "y", rootRole: 3, password: "short" },
    { username: "z", rootRole: 3, extra: 1 },
  ]) {
    const res = await srv.call("POST", ADMIN_ROUTE, { body, headers: admin });
    assert.equal([res.status, res.json.name], [400, "ValidationError"], JSON.stringify(body));
  }
  const list = await srv.call("GET", ADMIN_ROUTE, { headers: admin });
  assert.ok(list.json.users.some((u: { username: string }) => u.username === "dana"));
  assert.not.ok(JSON.stringify(list.json).includes("$2"), "no hash in the list");

  const viewer = await userWithRole(srv, "viewer");
  const res = await srv.call("POST", ADMIN_ROUTE, { body: { username: "w", rootRole: 3 }, headers: viewer.headers });
  assert.equal(
    [res.status, res.json.name, res.json.message],
    [403, "NoAccessError", 'You need the "ADMIN" permission to perform this action.'],
  );
  const users = await srv.db.kysely.selectFrom("users").select("username").where("username", "in", ["x", "y", "z", "w"]).execute();
  assert.equal(users, [], "no refused request created a user");
});

// Needs a real Postgres: PGlite serves one process.
if (srv.db.databaseUrl)
  test("two instances on one database share sessions and login limits", async () => {
    const db = connectDatabase({ databaseUrl: srv.db.databaseUrl, poolSize: 2 });
    const config = loadConfig({ SESSION_SECRET: srv.config.SESSION_SECRET as string, TRUST_PROXY: "127.0.0.1" });
    const other = createApp({ config, db, log: pino({ level: "silent" }) });
    await new Promise<void>((resolve) => other.server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
    try {
      const user = await userWithRole(srv, "viewer");
      const onOther = await request(`${base}/api/admin/environments`, { headers: user.headers });
      await onOther.body.dump();
      assert.is(onOther.statusCode, 200, "a session from one instance works on the other");

      // Five failures on this instance, then the other refuses the same account and address.
      const ip = "10.9.9.9";
      const trusted = await startTestServer(
        { TRUST_PROXY: "127.0.0.1", SESSION_SECRET: srv.config.SESSION_SECRET as string },
        { db: srv.db },
      );
      for (let i = 0; i < 5; i++) {
        const res = await trusted.call("POST", "/auth/simple/login", {
          body: { username: user.username, password: "wrong password" },
          headers: { "x-forwarded-for": ip },
        });
        assert.is(res.status, 401);
      }
      const limited = await request(`${base}/auth/simple/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ username: user.username, password: TEST_PASSWORD }),
      });
      await limited.body.dump();
      assert.is(limited.statusCode, 429);
      await trusted.app.server.close();
      await trusted.app.deps.hasher.close();
    } finally {
      await other.close();
    }
  });

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
