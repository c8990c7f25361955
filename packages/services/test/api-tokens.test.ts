import { createTestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createApiToken,
  createPersonalToken,
  createUser,
  deleteApiToken,
  deletePersonalToken,
  ensureInitialAdminTokens,
  listApiTokens,
  listPersonalTokens,
} from "../src/index.ts";
import { lookUpTokenPrincipal, NoAccessError, NotFoundError, type Principal, RootRole, ValidationError } from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { scryptHasher } from "./support/scrypt-hasher.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
const user = await createUser(db, scryptHasher(), null, { username: "tess", rootRole: RootRole.Editor });
const tess: Principal = { kind: "user", userId: user.id, username: "tess", rootRole: RootRole.Editor, via: "session" };
const admin: Principal = { kind: "admin-token", tokenId: 0, tokenName: "root" };

test("API tokens carry Unleash's prefix and stand for an admin or a client", async () => {
  const adminToken = await createApiToken(db, admin, { tokenName: "ops", type: "admin" });
  assert.match(adminToken.secret, /^\*:\*\.[0-9a-f]{64}$/);
  const client = await createApiToken(db, admin, { tokenName: "sdk", type: "client", projects: ["default"], environment: "production" });
  assert.match(client.secret, /^default:production\./);
  assert.equal((await lookUpTokenPrincipal(db, adminToken.secret))?.value, {
    kind: "admin-token",
    tokenId: adminToken.id,
    tokenName: "ops",
  });
  assert.equal((await lookUpTokenPrincipal(db, client.secret))?.value, {
    kind: "sdk-token",
    tokenId: client.id,
    tokenName: "sdk",
    type: "client",
    projects: ["default"],
    environment: "production",
  });
  assert.is(await lookUpTokenPrincipal(db, `${client.secret}x`), null);
  const stored = await db.selectFrom("api_tokens").select("secret_hash").where("id", "=", client.id).executeTakeFirstOrThrow();
  assert.not.match(stored.secret_hash, /default:production/, "only a hash of the secret is stored");
  await rejects(createApiToken(db, admin, { tokenName: "x", type: "client", environment: "nowhere" }), ValidationError);
});

test("a personal token acts as its user, is listed and revoked only by them, and ends when it expires", async () => {
  const pat = await createPersonalToken(db, tess, { description: "laptop", expiresAt: new Date("2099-01-01T00:00:00Z") });
  const found = await lookUpTokenPrincipal(db, pat.secret);
  assert.equal(found?.value, {
    kind: "user",
    userId: user.id,
    username: "tess",
    rootRole: RootRole.Editor,
    via: "personal-token",
    tokenId: pat.id,
    projectRoles: {},
  });
  assert.equal(found?.tags, [`token:${pat.id}`, `user:${user.id}`]);
  assert.equal(
    (await listPersonalTokens(db, tess)).map((t) => t.id),
    [pat.id],
  );
  assert.not.ok(
    (await listApiTokens(db)).some((t) => t.id === pat.id),
    "the admin list leaves personal tokens out",
  );
  await rejects(createPersonalToken(db, admin, { description: "x", expiresAt: new Date("2099-01-01T00:00:00Z") }), NoAccessError);
  await rejects(createPersonalToken(db, tess, { description: "x", expiresAt: new Date(Date.now() - 1000) }), ValidationError);
  const byToken = found?.value as Principal;
  await rejects(createPersonalToken(db, byToken, { description: "x", expiresAt: new Date("2099-01-01T00:00:00Z") }), NoAccessError);
  await rejects(deletePersonalToken(db, { ...tess, userId: user.id + 1 }, pat.id), NotFoundError);
  await rejects(deleteApiToken(db, admin, pat.id), NotFoundError);
  await rejects(listPersonalTokens(db, admin), NoAccessError);
  await rejects(deletePersonalToken(db, admin, pat.id), NoAccessError);
  await deletePersonalToken(db, tess, pat.id);
  assert.is(await lookUpTokenPrincipal(db, pat.secret), null);

  const expiring = await createPersonalToken(db, tess, { description: "short", expiresAt: new Date(Date.now() + 60_000) });
  const soon = await lookUpTokenPrincipal(db, expiring.secret);
  assert.ok(
    soon && soon.expiresInMs !== null && soon.expiresInMs > 0 && soon.expiresInMs <= 60_000,
    "a cache keeps it no longer than it lives",
  );
  await db
    .updateTable("api_tokens")
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where("id", "=", expiring.id)
    .execute();
  assert.is(await lookUpTokenPrincipal(db, expiring.secret), null);
});

test("initial admin tokens are created once, and must look like admin tokens", async () => {
  const token = "*:*.an-initial-admin-secret";
  assert.is(await ensureInitialAdminTokens(db, [token]), 1);
  assert.is(await ensureInitialAdminTokens(db, [token]), 0);
  assert.is((await lookUpTokenPrincipal(db, token))?.value.kind, "admin-token");
  await rejects(ensureInitialAdminTokens(db, ["default:development.short"]), ValidationError);
});

test.after(() => testDb.close());
test.run();
