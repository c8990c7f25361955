import { createTestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { changePassword, createPersonalToken, createUser, DEFAULT_LOGIN_LIMITS, DEFAULT_SESSION_POLICY, deleteUser } from "../src/index.ts";
import { listUsers, login, lookUpTokenPrincipal, NameExistsError, NotFoundError, PasswordMismatch, RootRole } from "../src/index.ts";
import { ValidationError } from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { scryptHasher } from "./support/scrypt-hasher.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
const hasher = scryptHasher();
const PASSWORD = "correct horse battery";
const logIn = (username: string, password = PASSWORD) =>
  login(
    db,
    hasher,
    { sessions: DEFAULT_SESSION_POLICY, limits: DEFAULT_LOGIN_LIMITS },
    { username, password, ip: "10.8.0.1", userAgent: null },
  );
const sessionsOf = async (userId: number) => (await db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute()).length;

test("a user is created with a hashed password and a unique name and e-mail", async () => {
  const user = await createUser(db, hasher, null, {
    username: "uma",
    email: "Uma@example.com",
    password: PASSWORD,
    rootRole: RootRole.Editor,
  });
  assert.equal([user.username, user.email, user.rootRole], ["uma", "Uma@example.com", RootRole.Editor]);
  const stored = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.ok(stored.password_hash && !stored.password_hash.includes(PASSWORD));
  assert.ok((await listUsers(db)).some((u) => u.id === user.id));
  await rejects(createUser(db, hasher, null, { username: "uma", rootRole: RootRole.Viewer }), NameExistsError);
  await rejects(createUser(db, hasher, null, { email: "uma@EXAMPLE.com", rootRole: RootRole.Viewer }), NameExistsError);
  await rejects(createUser(db, hasher, null, { rootRole: RootRole.Viewer }), ValidationError);
  await rejects(createUser(db, hasher, null, { username: "short", password: "short", rootRole: RootRole.Viewer }), ValidationError);
  assert.is((await logIn("uma@example.com")).user.id, user.id, "logs in by e-mail, whatever its case");
});

test("a new password ends every session of the user and the old password stops working", async () => {
  const user = await createUser(db, hasher, null, { username: "victor", password: PASSWORD, rootRole: RootRole.Viewer });
  await logIn("victor");
  await logIn("victor");
  assert.is(await sessionsOf(user.id), 2);
  await changePassword(db, hasher, null, user.id, "a brand new password");
  assert.is(await sessionsOf(user.id), 0);
  await rejects(logIn("victor"), PasswordMismatch);
  assert.is((await logIn("victor", "a brand new password")).user.id, user.id);
  await rejects(changePassword(db, hasher, null, user.id + 1000, "a brand new password"), NotFoundError);
});

test("deleting a user ends their sessions and personal tokens", async () => {
  const user = await createUser(db, hasher, null, { username: "wendy", password: PASSWORD, rootRole: RootRole.Editor });
  await logIn("wendy");
  const by = { kind: "user", userId: user.id, username: "wendy", rootRole: RootRole.Editor, via: "session" } as const;
  const pat = await createPersonalToken(db, by, { description: "ci", expiresAt: new Date("2099-01-01T00:00:00Z") });
  await deleteUser(db, null, user.id);
  assert.is(await sessionsOf(user.id), 0);
  assert.is(await lookUpTokenPrincipal(db, pat.secret), null);
  await rejects(deleteUser(db, null, user.id), NotFoundError);
});

test.after(() => testDb.close());
test.run();
