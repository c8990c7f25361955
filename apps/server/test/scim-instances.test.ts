import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { createApiToken } from "@vexil/services";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { until } from "./support/eventually.ts";
import { callUrl } from "./support/test-server.ts";

// A leaver deprovisioned through one instance loses access on every instance (docs/scim.md#leavers):
// two instances on one database need a real Postgres, as PGlite serves one process.
const serverUrl = process.env.TEST_DATABASE_URL;

async function startInstance(databaseUrl: string): Promise<{ app: App; url: string }> {
  const db = connectDatabase({ databaseUrl, poolSize: 4 });
  const config = loadConfig({ SESSION_SECRET: "one secret shared by both instances!!", PASSWORD_WORKERS: "1" });
  const app = createApp({ config, db, log: pino({ level: "silent" }) });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  // Each instance caches credentials only while it hears the database's notices: wait until it does.
  await app.deps.principals.listening;
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

if (serverUrl) {
  const testDb = await createTestDb();
  const a = await startInstance(testDb.databaseUrl as string);
  const b = await startInstance(testDb.databaseUrl as string);
  const idp = { authorization: `Bearer ${(await createApiToken(testDb.kysely, null, { tokenName: "okta", type: "scim" })).secret}` };
  const password = "a password for both instances";

  const scim = (url: string, method: string, path: string, body?: unknown) =>
    callUrl(url, method, `/scim/v2${path}`, {
      headers: { ...idp, ...(body !== undefined ? { "content-type": "application/scim+json" } : {}) },
      ...(body !== undefined ? { raw: JSON.stringify(body) } : {}),
    });

  /** A provisioned user signed in on instance A with a session and a personal access token, both in use on B. */
  async function signedIn(userName: string) {
    const created = await scim(a.url, "POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName,
      active: true,
    });
    assert.is(created.status, 201);
    // The password stands in for the identity provider's sign-in (issue 27's OIDC part): a session is a session.
    await testDb.kysely
      .updateTable("users")
      .set({ password_hash: await a.app.deps.hasher.hash(password) })
      .where("scim_id", "=", created.json.id)
      .execute();
    const login = await callUrl(a.url, "POST", "/auth/simple/login", { body: { username: userName, password } });
    assert.equal([login.status, login.json.scimId], [200, created.json.id]);
    const session = { cookie: String(login.headers["set-cookie"]).split(";", 1)[0] as string };
    const pat = await callUrl(a.url, "POST", "/api/admin/user/tokens", {
      headers: session,
      body: { description: "laptop", expiresAt: "2099-01-01T00:00:00.000Z" },
    });
    const token = { authorization: pat.json.secret as string };
    // Both credentials work on both instances, and B now holds them in its cache.
    for (const url of [a.url, b.url, b.url]) {
      for (const headers of [session, token]) assert.is((await callUrl(url, "GET", "/api/admin/projects", { headers })).status, 200);
    }
    return { id: created.json.id as string, session, token };
  }

  const refusedOn = async (url: string, headers: Record<string, string>) =>
    (await callUrl(url, "GET", "/api/admin/projects", { headers })).status === 401;

  test("Okta's deactivation through A: the session and the token stop on A at once and on B at its next requests", async () => {
    const { id, session, token } = await signedIn("leaver@example.com");
    const off = await scim(a.url, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    assert.equal([off.status, off.json.active], [200, false]);
    assert.ok(await refusedOn(a.url, session));
    assert.ok(await refusedOn(a.url, token));
    // B hears of it from the database (NOTIFY) a moment after the commit.
    await until(
      async () => (await refusedOn(b.url, session)) && (await refusedOn(b.url, token)),
      "B to refuse the leaver's session and token",
    );
    // Reactivation gives nothing back: the session and the token were ended, not suspended.
    await scim(b.url, "PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "True" }] });
    assert.ok(await refusedOn(a.url, session));
    assert.ok(await refusedOn(b.url, token));
  });

  test("Entra's DELETE through B: the session and the token stop on A", async () => {
    const { id, session, token } = await signedIn("deleted@example.com");
    // Warm A's cache as well.
    assert.is((await callUrl(a.url, "GET", "/api/admin/projects", { headers: session })).status, 200);
    assert.is((await scim(b.url, "DELETE", `/Users/${id}`)).status, 204);
    assert.ok(await refusedOn(b.url, session));
    await until(
      async () => (await refusedOn(a.url, session)) && (await refusedOn(a.url, token)),
      "A to refuse the deleted user's credentials",
    );
  });

  test.after(async () => {
    await a.app.close();
    await b.app.close();
    await testDb.close();
  });
}

test.run();
