import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventuallyStatus, until } from "./support/eventually.ts";
import { DEFAULT_SESSION_POLICY } from "@vexil/services";
import { adminToken, loginHeaders, userWithRole } from "./support/principals.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Long enough that only an invalidation, never the backstop expiry, can end a cached answer here.
const CACHED = { AUTH_CACHE_TTL_MS: "600000" };
const ENVIRONMENTS = "/api/admin/environments";
const ADMIN_ROUTE = "/api/admin/user-admin";

// Two instances on one database: `one` makes the changes, `other` has the answers cached.
const one = await startTestServer(CACHED);
const other = await startTestServer({ ...CACHED, SESSION_SECRET: one.config.SESSION_SECRET as string }, { db: one.db });
// Until an instance hears the database's announcements it caches nothing (its LISTEN connection
// is opened as it starts): the first test needs `other` caching.
await other.app.deps.principals?.listening;

async function cachedOnOther(headers: Record<string, string>, path = ENVIRONMENTS, status = 200): Promise<void> {
  assert.is((await other.call("GET", path, { headers })).status, status);
}

test("the cache is used: without the database's notice, the other instance keeps a deleted token", async () => {
  const token = await adminToken(one);
  await cachedOnOther(token);
  await sql`alter table api_tokens disable trigger api_tokens_auth_change`.execute(one.db.kysely);
  try {
    await one.db.kysely.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
    assert.is((await other.call("GET", ENVIRONMENTS, { headers: token })).status, 200, "answered from the cache");
  } finally {
    await sql`alter table api_tokens enable trigger api_tokens_auth_change`.execute(one.db.kysely);
  }
  // Any later change to that token's row would have reached it; this one drops it from both.
  await one.db.kysely.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
});

interface WritePath {
  name: string;
  /** A credential, and the write through `writer` that must end it. */
  prepare(writer: TestServer): Promise<{ credential: Record<string, string>; write(): Promise<number> }>;
}

const call = (srv: TestServer, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  srv.call(method, path, { headers, ...(body === undefined ? {} : { body }) }).then((res) => res.status);

const patOf = async (srv: TestServer, headers: Record<string, string>) => {
  const pat = await srv.call("POST", "/api/admin/user/tokens", {
    body: { description: "laptop", expiresAt: "2099-01-01T00:00:00.000Z" },
    headers,
  });
  return { id: pat.json.id as number, headers: { authorization: pat.json.secret as string } };
};

// Every HTTP write to api_tokens, sessions or users that can end a credential. No procedure evicts
// anything itself: the database announces each change, to the writer before its response.
const WRITE_PATHS: WritePath[] = [
  {
    name: "revoking an API token",
    async prepare(writer) {
      const admin = await adminToken(writer);
      const created = await writer.call("POST", "/api/admin/api-tokens", { body: { tokenName: "ci", type: "admin" }, headers: admin });
      return {
        credential: { authorization: created.json.secret },
        write: () => call(writer, "DELETE", `/api/admin/api-tokens/${created.json.id}`, admin),
      };
    },
  },
  {
    name: "revoking a personal access token",
    async prepare(writer) {
      const user = await userWithRole(writer, "editor");
      const pat = await patOf(writer, user.headers);
      return { credential: pat.headers, write: () => call(writer, "DELETE", `/api/admin/user/tokens/${pat.id}`, user.headers) };
    },
  },
  {
    name: "logging out (a session)",
    async prepare(writer) {
      const user = await userWithRole(writer, "viewer");
      return { credential: user.headers, write: () => call(writer, "POST", "/logout", user.headers, {}) };
    },
  },
  {
    name: "logging in beyond the sessions a user may have (the oldest session ends)",
    async prepare(writer) {
      const user = await userWithRole(writer, "viewer");
      for (let i = 1; i < DEFAULT_SESSION_POLICY.maxPerUser; i++) await loginHeaders(writer, user.username, user.password);
      return {
        credential: user.headers,
        write: () => call(writer, "POST", "/auth/simple/login", {}, { username: user.username, password: user.password }),
      };
    },
  },
  {
    name: "an admin setting a user's password (a user)",
    async prepare(writer) {
      const admin = await adminToken(writer);
      const user = await userWithRole(writer, "editor");
      return {
        credential: user.headers,
        write: () => call(writer, "POST", `/api/admin/user-admin/${user.id}/change-password`, admin, { password: "a brand new password" }),
      };
    },
  },
  {
    name: "a user changing their own password (their other session)",
    async prepare(writer) {
      const user = await userWithRole(writer, "editor");
      const second = await loginHeaders(writer, user.username, user.password);
      const body = { password: "a brand new password", oldPassword: user.password };
      return { credential: user.headers, write: () => call(writer, "POST", "/api/admin/user/change-password", second, body) };
    },
  },
  {
    name: "a user changing their own password (their personal access token)",
    async prepare(writer) {
      const user = await userWithRole(writer, "editor");
      const pat = await patOf(writer, user.headers);
      const body = { password: "a brand new password", oldPassword: user.password };
      return { credential: pat.headers, write: () => call(writer, "POST", "/api/admin/user/change-password", user.headers, body) };
    },
  },
  {
    name: "deleting a user (their personal access token)",
    async prepare(writer) {
      const admin = await adminToken(writer);
      const user = await userWithRole(writer, "editor");
      const pat = await patOf(writer, user.headers);
      return { credential: pat.headers, write: () => call(writer, "DELETE", `/api/admin/user-admin/${user.id}`, admin) };
    },
  },
];

for (const path of WRITE_PATHS) {
  for (const [writerName, writer, reader] of [
    ["one", one, other],
    ["the other", other, one],
  ] as const) {
    test(`${path.name} through ${writerName} instance ends the cached credential there at once and on the other soon`, async () => {
      const { credential, write } = await path.prepare(writer);
      for (const srv of [writer, reader, writer, reader])
        assert.is(await call(srv, "GET", ENVIRONMENTS, credential), 200, "cached on both");
      assert.is(await write(), 200);
      assert.is(await call(writer, "GET", ENVIRONMENTS, credential), 401, "gone from the writer's cache with its response");
      await eventuallyStatus(reader, ENVIRONMENTS, credential, 401);
    });
  }
}

test("changes made by hand in SQL reach every instance: a role change and an expired token", async () => {
  const viewer = await userWithRole(one, "viewer");
  await cachedOnOther(viewer.headers, ADMIN_ROUTE, 403);
  await one.db.kysely.updateTable("users").set({ root_role: 1 }).where("id", "=", viewer.id).execute();
  await eventuallyStatus(other, ADMIN_ROUTE, viewer.headers, 200);

  const token = await adminToken(one);
  await cachedOnOther(token);
  await one.db.kysely
    .updateTable("api_tokens")
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where("token_name", "like", "admin-%")
    .execute();
  await eventuallyStatus(other, ENVIRONMENTS, token, 401);
});

test("a token with an expiry is kept no longer than it lives", async () => {
  const viewer = await userWithRole(one, "viewer");
  const soon = new Date(Date.now() + 1_500).toISOString();
  const pat = await one.call("POST", "/api/admin/user/tokens", {
    body: { description: "short", expiresAt: soon },
    headers: viewer.headers,
  });
  const headers = { authorization: pat.json.secret };
  await cachedOnOther(headers);
  // Nothing changes in the database: only the expiry recorded with the cached answer can end it.
  await eventuallyStatus(other, ENVIRONMENTS, headers, 401);
});

// Needs a real Postgres: the listener is a connection that can be cut there.
if (one.db.databaseUrl)
  test("while an instance cannot hear changes it caches nothing", async () => {
    const token = await adminToken(one);
    await cachedOnOther(token);
    await cachedOnOther(token);
    const lostBefore = other.logs.filter((l) => /hears auth changes/.test(String(l.msg))).length;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`.execute(one.db.kysely);
    await until(
      () => other.logs.filter((l) => /hears auth changes/.test(String(l.msg))).length > lostBefore,
      "the lost listener to be noticed",
    );
    // Deleted without a notice: only the suspension of the cache can make this a 401.
    await sql`alter table api_tokens disable trigger api_tokens_auth_change`.execute(one.db.kysely);
    try {
      await one.db.kysely.deleteFrom("api_tokens").where("token_name", "like", "admin-%").execute();
    } finally {
      await sql`alter table api_tokens enable trigger api_tokens_auth_change`.execute(one.db.kysely);
    }
    assert.is((await other.call("GET", ENVIRONMENTS, { headers: token })).status, 401);
  });

test.after(async () => {
  await other.app.server.close();
  await other.app.deps.hasher.close();
  await one.close();
});

test.run();
