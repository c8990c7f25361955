import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventuallyStatus, until } from "./support/eventually.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Long enough that only an invalidation, never the backstop expiry, can end a cached answer here.
const CACHED = { AUTH_CACHE_TTL_MS: "600000" };
const ENVIRONMENTS = "/api/admin/environments";
const ADMIN_ROUTE = "/api/admin/user-admin";

// Two instances on one database: `one` makes the changes, `other` has the answers cached.
const one = await startTestServer(CACHED);
const other = await startTestServer({ ...CACHED, SESSION_SECRET: one.config.SESSION_SECRET as string }, { db: one.db });

async function cachedOnOther(headers: Record<string, string>, path = ENVIRONMENTS, status = 200): Promise<void> {
  assert.is((await other.call("GET", path, { headers })).status, status);
}

test("the cache is used: without the database's notice, the other instance keeps a deleted token", async () => {
  const token = await adminToken(one);
  await cachedOnOther(token);
  await sql`alter table api_tokens disable trigger api_tokens_auth_change`.execute(one.db.db);
  try {
    await one.db.db.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
    assert.is((await other.call("GET", ENVIRONMENTS, { headers: token })).status, 200, "answered from the cache");
  } finally {
    await sql`alter table api_tokens enable trigger api_tokens_auth_change`.execute(one.db.db);
  }
  // Any later change to that token's row would have reached it; this one drops it from both.
  await one.db.db.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
});

test("a token revoked through one instance is refused by the other", async () => {
  const admin = await adminToken(one);
  const created = await one.call("POST", "/api/admin/api-tokens", { body: { tokenName: "ci", type: "admin" }, headers: admin });
  const token = { authorization: created.json.secret };
  await cachedOnOther(token);
  assert.is((await one.call("DELETE", `/api/admin/api-tokens/${created.json.id}`, { headers: admin })).status, 200);
  assert.is((await one.call("GET", ENVIRONMENTS, { headers: token })).status, 401, "at once on the instance that revoked it");
  await eventuallyStatus(other, ENVIRONMENTS, token, 401);
});

test("a logout, a password change and a user deletion through one instance end access on the other", async () => {
  const admin = await adminToken(one);
  const leaving = await userWithRole(one, "viewer");
  await cachedOnOther(leaving.headers);
  assert.is((await one.call("POST", "/logout", { body: {}, headers: leaving.headers })).status, 200);
  await eventuallyStatus(other, ENVIRONMENTS, leaving.headers, 401);

  const changed = await userWithRole(one, "editor");
  await cachedOnOther(changed.headers);
  const res = await one.call("POST", `/api/admin/user-admin/${changed.id}/change-password`, { body: { password: "a brand new password" }, headers: admin });
  assert.is(res.status, 200);
  await eventuallyStatus(other, ENVIRONMENTS, changed.headers, 401);

  const deleted = await userWithRole(one, "editor");
  const pat = await one.call("POST", "/api/admin/user/tokens", { body: { description: "laptop", expiresAt: null }, headers: deleted.headers });
  const patHeaders = { authorization: pat.json.secret };
  await cachedOnOther(patHeaders);
  await cachedOnOther(deleted.headers);
  assert.is((await one.call("DELETE", `/api/admin/user-admin/${deleted.id}`, { headers: admin })).status, 200);
  await eventuallyStatus(other, ENVIRONMENTS, patHeaders, 401);
  await eventuallyStatus(other, ENVIRONMENTS, deleted.headers, 401);
});

test("changes made by hand in SQL reach every instance: a role change and an expired token", async () => {
  const viewer = await userWithRole(one, "viewer");
  await cachedOnOther(viewer.headers, ADMIN_ROUTE, 403);
  await one.db.db.updateTable("users").set({ root_role: 1 }).where("id", "=", viewer.id).execute();
  await eventuallyStatus(other, ADMIN_ROUTE, viewer.headers, 200);

  const token = await adminToken(one);
  await cachedOnOther(token);
  await one.db.db.updateTable("api_tokens").set({ expires_at: new Date(Date.now() - 1000) }).where("token_name", "like", "admin-%").execute();
  await eventuallyStatus(other, ENVIRONMENTS, token, 401);
});

test("a token with an expiry is kept no longer than it lives", async () => {
  const viewer = await userWithRole(one, "viewer");
  const soon = new Date(Date.now() + 1_500).toISOString();
  const pat = await one.call("POST", "/api/admin/user/tokens", { body: { description: "short", expiresAt: soon }, headers: viewer.headers });
  const headers = { authorization: pat.json.secret };
  await cachedOnOther(headers);
  // Nothing changes in the database: only the expiry recorded with the cached answer can end it.
  await eventuallyStatus(other, ENVIRONMENTS, headers, 401);
});

// Needs a real Postgres: the listener is a connection that can be cut there.
if (one.db.databaseUrl) test("while an instance cannot hear changes it caches nothing", async () => {
  const token = await adminToken(one);
  await cachedOnOther(token);
  await cachedOnOther(token);
  const lostBefore = other.logs.filter((l) => /hears auth changes/.test(String(l.msg))).length;
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`.execute(one.db.db);
  await until(() => other.logs.filter((l) => /hears auth changes/.test(String(l.msg))).length > lostBefore, "the lost listener to be noticed");
  // Deleted without a notice: only the suspension of the cache can make this a 401.
  await sql`alter table api_tokens disable trigger api_tokens_auth_change`.execute(one.db.db);
  try {
    await one.db.db.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
  } finally {
    await sql`alter table api_tokens enable trigger api_tokens_auth_change`.execute(one.db.db);
  }
  assert.is((await other.call("GET", ENVIRONMENTS, { headers: token })).status, 401);
});

test.after(async () => {
  await other.app.server.close();
  await other.app.deps.hasher.close();
  await one.close();
});

test.run();
