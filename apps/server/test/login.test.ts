import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loginHeaders, sessionCookieFrom, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { startTestServer, UUID_V4 } from "./support/test-server.ts";

// Each client address gets its own limits; TRUST_PROXY lets the tests speak from many addresses.
const srv = await startTestServer({ TRUST_PROXY: "127.0.0.1" });
let address = 0;
const from = () => ({ "x-forwarded-for": `10.1.${Math.floor(++address / 250)}.${address % 250}` });
// What the admin's password becomes once the default one is changed, in the first test.
const ADMIN_PASSWORD = "the admin's own password";
const login = (username: string, password: string, headers: Record<string, string> = from()) =>
  srv.call("POST", "/auth/simple/login", { body: { username, password }, headers });
const count = async (table: "sessions" | "login_failures" | "events") =>
  Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(srv.db.kysely)).rows[0]?.n);

test("login: 200 with the user, never the hash, and a sealed HttpOnly session cookie", async () => {
  const res = await login("admin", "unleash4all");
  assert.is(res.status, 200);
  assert.is(res.json.username, "admin");
  assert.is(res.json.rootRole, 1);
  assert.is(res.json.accountType, "User");
  assert.is(res.json.loginAttempts, 0);
  assert.equal(res.json.permissions, []);
  assert.type(res.json.imageUrl, "string");
  assert.not.ok(JSON.stringify(res.json).includes("$2"), "no bcrypt hash in the body");
  assert.not.ok("passwordHash" in res.json || "password_hash" in res.json);
  const cookie = String(res.headers["set-cookie"]);
  assert.match(cookie, /^vexil-session=Fe26\.2\*/);
  for (const flag of ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=172800"]) assert.ok(cookie.includes(flag), flag);
  assert.not.ok(cookie.includes("Secure"));
  assert.is(res.headers["cache-control"], "no-store");
  // The default admin password: the session may only change it.
  assert.is(res.json.passwordChangeRequired, true);
  const headers = { cookie: sessionCookieFrom(res.headers["set-cookie"]) };
  const refused = await srv.call("GET", "/api/admin/environments", { headers });
  assert.equal(
    [refused.status, refused.json.name, refused.json.message],
    [403, "NoAccessError", "You logged in with the default password: change it first (POST /api/admin/user/change-password)."],
  );
  assert.is((await srv.call("GET", "/api/admin/user", { headers })).status, 200, "it may read who it is");
  const changed = await srv.call("POST", "/api/admin/user/change-password", {
    body: { password: ADMIN_PASSWORD, oldPassword: "unleash4all" },
    headers,
  });
  assert.is(changed.status, 200);
  assert.is((await srv.call("GET", "/api/admin/environments", { headers })).status, 200, "then it is a session like any");
  const next = await login("admin", ADMIN_PASSWORD);
  assert.equal([next.status, next.json.passwordChangeRequired], [200, undefined]);
});

test("login: seenAt is the previous login (null the first time); the stored one becomes now", async () => {
  const user = await userWithRole(srv, "viewer");
  const row = await srv.db.kysely.selectFrom("users").select("seen_at").where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.ok(row.seen_at instanceof Date, "the first login stored seen_at");
  const second = await login(user.username, TEST_PASSWORD);
  assert.is(second.json.seenAt, (row.seen_at as Date).toISOString());
  const session = await srv.db.kysely
    .selectFrom("sessions")
    .selectAll()
    .where("user_id", "=", user.id)
    .orderBy("seq", "desc")
    .executeTakeFirstOrThrow();
  assert.ok(session.ip?.startsWith("10.1."), "the session row keeps the client address");
  assert.ok(session.expires_at.getTime() - session.created_at.getTime() > 47.9 * 3600_000);
});

test("login: the e-mail works as username, case-insensitively", async () => {
  const admin = await srv.call("POST", "/auth/simple/login", { body: { username: "admin", password: ADMIN_PASSWORD }, headers: from() });
  const cookie = sessionCookieFrom(admin.headers["set-cookie"]);
  const created = await srv.call("POST", "/api/admin/user-admin", {
    body: { email: "Mixed.Case@Example.com", password: TEST_PASSWORD, rootRole: 3 },
    headers: { cookie },
  });
  assert.is(created.status, 201);
  const res = await login("mixed.case@example.COM", TEST_PASSWORD);
  assert.is(res.status, 200);
  assert.is(res.json.email, "Mixed.Case@Example.com");
});

test("login: a wrong password and an unknown user fail alike", async () => {
  const wrong = await login("admin", "not the password");
  const unknown = await login("no-such-user", "not the password");
  for (const res of [wrong, unknown]) {
    assert.is(res.status, 401);
    assert.is(res.json.name, "PasswordMismatch");
    assert.match(res.json.id, UUID_V4);
    assert.not.ok(res.headers["set-cookie"]);
  }
  assert.is(wrong.json.message, unknown.json.message);
  assert.equal(Object.keys(wrong.json).sort(), Object.keys(unknown.json).sort());
});

test("login: bad requests are 400/415 and leave no session", async () => {
  const before = await count("sessions");
  const cases: [unknown, number][] = [
    [{ username: "admin" }, 400],
    [{ password: "unleash4all" }, 400],
    [{ username: 1, password: "unleash4all" }, 400],
    [{ username: "admin", password: ["unleash4all"] }, 400],
    [{ username: "admin", password: "unleash4all", extra: true }, 400],
    [{ username: "", password: "" }, 400],
  ];
  for (const [body, status] of cases) {
    const res = await srv.call("POST", "/auth/simple/login", { body, headers: from() });
    assert.is(res.status, status, JSON.stringify(body));
    assert.is(res.json.name, "ValidationError");
    assert.ok(Array.isArray(res.json.details) && res.json.details.length > 0);
  }
  const malformed = await srv.call("POST", "/auth/simple/login", {
    raw: '{"username": "admin",',
    headers: { "content-type": "application/json", ...from() },
  });
  assert.equal([malformed.status, malformed.json.name], [400, "ValidationError"]);
  const form = await srv.call("POST", "/auth/simple/login", {
    raw: "username=admin&password=unleash4all",
    headers: { "content-type": "application/x-www-form-urlencoded", ...from() },
  });
  assert.equal([form.status, form.json.name], [415, "ContentTypeerror"]);
  assert.is(await count("sessions"), before);
});

test("loginAttempts counts consecutive failures and a success resets it", async () => {
  const user = await userWithRole(srv, "editor");
  const ip = from();
  await login(user.username, "wrong password 1", ip);
  await login(user.username, "wrong password 2", ip);
  const stored = await srv.db.kysely.selectFrom("users").select("login_attempts").where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.is(stored.login_attempts, 2);
  const ok = await login(user.username, TEST_PASSWORD, ip);
  assert.is(ok.json.loginAttempts, 0);
  const after = await srv.db.kysely.selectFrom("users").select("login_attempts").where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.is(after.login_attempts, 0);
});

test("rate limit per address: the 11th failure in a minute is 429, whatever the password, until the window passes", async () => {
  const ip = from();
  // Ten different accounts, so only the per-address limit is in play.
  for (let i = 0; i < 10; i++) assert.is((await login(`ghost-${address}-${i}`, "wrong password", ip)).status, 401);
  const limited = await login("admin", ADMIN_PASSWORD, ip);
  assert.is(limited.status, 429);
  assert.is(limited.json.name, "TooManyRequests");
  const retry = Number(limited.headers["retry-after"]);
  assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  assert.is((await login("admin", ADMIN_PASSWORD)).status, 200, "another address is not affected");

  await sql`update login_failures set failed_at = failed_at - interval '61 seconds' where ip = ${ip["x-forwarded-for"]}`.execute(
    srv.db.kysely,
  );
  assert.is((await login("admin", ADMIN_PASSWORD, ip)).status, 200, "released after the window");
});

test("rate limit per account and address: after 5 failures in a row, a doubling delay", async () => {
  const user = await userWithRole(srv, "viewer");
  const ip = from();
  for (let i = 0; i < 5; i++) assert.is((await login(user.username, "wrong password", ip)).status, 401);
  const limited = await login(user.username, TEST_PASSWORD, ip);
  assert.is(limited.status, 429);
  assert.is(limited.headers["retry-after"], "1");
  assert.is((await login(user.username, TEST_PASSWORD)).status, 200, "the same account from another address");

  // Once the delay has passed the next attempt is heard; a sixth failure doubles the delay.
  await sql`update login_streaks set last_failed_at = last_failed_at - interval '2 seconds' where ip = ${ip["x-forwarded-for"]}`.execute(
    srv.db.kysely,
  );
  assert.is((await login(user.username, "wrong password", ip)).status, 401);
  const doubled = await login(user.username, TEST_PASSWORD, ip);
  assert.equal([doubled.status, doubled.headers["retry-after"]], [429, "2"]);
  await sql`update login_streaks set last_failed_at = last_failed_at - interval '3 seconds' where ip = ${ip["x-forwarded-for"]}`.execute(
    srv.db.kysely,
  );
  assert.is((await login(user.username, TEST_PASSWORD, ip)).status, 200);
});

test("rate limit per account from all addresses: past 100 failures an hour the failing addresses wait, the owner elsewhere logs in", async () => {
  const user = await userWithRole(srv, "viewer");
  // Four failures from each of 25 addresses: no single address reaches its own limits.
  const failing = [];
  for (let a = 0; a < 25; a++) {
    const ip = from();
    failing.push(ip);
    for (let i = 0; i < 4; i++) assert.is((await login(user.username, "wrong password", ip)).status, 401);
  }
  const limited = await login(user.username, TEST_PASSWORD, failing[0]);
  assert.equal(
    [limited.status, limited.json.name],
    [429, "TooManyRequests"],
    "an address that failed for it waits, even with the password",
  );
  assert.ok(Number(limited.headers["retry-after"]) > 60);
  assert.is((await login(user.username, TEST_PASSWORD)).status, 200, "the owner, on another address, is let in");
  const guesser = from();
  assert.is((await login(user.username, "another guess", guesser)).status, 401, "a new address gets one guess");
  assert.is((await login(user.username, "a second guess", guesser)).status, 429, "and then waits");
});

test("at most 5 sessions a user: the sixth login ends the first", async () => {
  const user = await userWithRole(srv, "viewer");
  const cookies = [user.headers];
  for (let i = 0; i < 5; i++) cookies.push(await loginHeaders(srv, user.username, TEST_PASSWORD));
  const stored = await srv.db.kysely.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  assert.is(stored.length, 5);
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: cookies[0] })).status, 401);
  for (const headers of cookies.slice(1)) assert.is((await srv.call("GET", "/api/admin/environments", { headers })).status, 200);
});

test("logout ends the session and clears the cookie", async () => {
  const user = await userWithRole(srv, "viewer");
  const res = await srv.call("POST", "/logout", { headers: user.headers });
  assert.is(res.status, 200);
  assert.match(String(res.headers["set-cookie"]), /vexil-session=; .*Max-Age=0/);
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: user.headers })).status, 401);
  const left = await srv.db.kysely.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  assert.equal(left, []);
});

test("tampered, foreign, expired and revoked cookies are 401", async () => {
  const user = await userWithRole(srv, "viewer");
  const value = user.headers.cookie as string;
  const tampered = value.slice(0, -5) + (value.endsWith("A") ? "BBBBB" : "AAAAA");
  // iron-session alone accepts anything after its "~2" version suffix.
  const appended = [`${value}x`, `${value}0`, `${value}~2`];
  for (const cookie of [tampered, ...appended, "vexil-session=garbage", "vexil-session=Fe26.2*1*x*y*z*1*a*b~2"]) {
    const res = await srv.call("GET", "/api/admin/environments", { headers: { cookie } });
    assert.equal([res.status, res.json.name], [401, "AuthenticationRequired"], cookie);
  }
  await srv.db.kysely
    .updateTable("sessions")
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where("user_id", "=", user.id)
    .execute();
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: user.headers })).status, 401, "expired");

  const idle = await userWithRole(srv, "viewer");
  await srv.db.kysely
    .updateTable("sessions")
    .set({ last_seen_at: new Date(Date.now() - 25 * 3600_000) })
    .where("user_id", "=", idle.id)
    .execute();
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: idle.headers })).status, 401, "idle");
});

test("a password change and a user deletion end that user's sessions", async () => {
  const admin = await loginHeaders(srv, "admin", ADMIN_PASSWORD);
  const changed = await userWithRole(srv, "editor");
  const res = await srv.call("POST", `/api/admin/user-admin/${changed.id}/change-password`, {
    body: { password: "a brand new password" },
    headers: admin,
  });
  assert.is(res.status, 200);
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: changed.headers })).status, 401);
  assert.is((await login(changed.username, "a brand new password")).status, 200);

  const deleted = await userWithRole(srv, "editor");
  assert.is((await srv.call("DELETE", `/api/admin/user-admin/${deleted.id}`, { headers: admin })).status, 200);
  assert.is((await srv.call("GET", "/api/admin/environments", { headers: deleted.headers })).status, 401);
  const events = await srv.db.kysely
    .selectFrom("events")
    .select("type")
    .where("type", "in", ["user-password-changed", "user-deleted"])
    .execute();
  // The admin's own change of the default password, in the first test, is one too.
  assert.equal(events.map((e) => e.type).sort(), ["user-deleted", "user-password-changed", "user-password-changed"]);
});

test("SECURE_COOKIES adds Secure to the cookie", async () => {
  const secure = await startTestServer({ SECURE_COOKIES: "true" });
  try {
    const res = await secure.call("POST", "/auth/simple/login", { body: { username: "admin", password: "unleash4all" } });
    assert.ok(String(res.headers["set-cookie"]).includes("; Secure"));
  } finally {
    await secure.close();
    await secure.db.close();
  }
});

test("a successful login is recorded as an event", async () => {
  const user = await userWithRole(srv, "viewer");
  const events = await srv.db.kysely
    .selectFrom("events")
    .selectAll()
    .where("type", "=", "user-logged-in")
    .where("created_by_user_id", "=", user.id)
    .execute();
  assert.is(events.length, 1);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
