import { createTestDb } from "@vexil/db/testing";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createUser, DEFAULT_LOGIN_LIMITS, DEFAULT_SESSION_POLICY, endSession, forgetExpiredAuthRecords, login } from "../src/index.ts";
import { lookUpSessionPrincipal, RootRole, type SessionPolicy } from "../src/index.ts";
import { scryptHasher } from "./support/scrypt-hasher.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
const hasher = scryptHasher();
const PASSWORD = "correct horse battery";
const policy: SessionPolicy = { ...DEFAULT_SESSION_POLICY, maxPerUser: 3 };
let n = 0;

async function newUser() {
  const username = `session-user-${++n}`;
  const user = await createUser(db, hasher, null, { username, password: PASSWORD, rootRole: RootRole.Viewer });
  return { ...user, username };
}
const logIn = async (username: string) =>
  (
    await login(
      db,
      hasher,
      { sessions: policy, limits: DEFAULT_LOGIN_LIMITS },
      { username, password: PASSWORD, ip: "10.9.0.1", userAgent: "test" },
    )
  ).sessionId;

test("a login's session stands for its user until it ends", async () => {
  const user = await newUser();
  const sessionId = await logIn(user.username);
  const found = await lookUpSessionPrincipal(db, sessionId, policy);
  assert.equal(found?.value, {
    kind: "user",
    userId: user.id,
    username: user.username,
    rootRole: RootRole.Viewer,
    via: "session",
    sessionId,
    // No project roles (docs/project-roles.md#the-rule).
    projectRoles: {},
  });
  assert.equal(found?.tags, [`user:${user.id}`]);
  assert.ok(found && found.expiresInMs !== null && found.expiresInMs > 0 && found.expiresInMs <= policy.idleMs);
  assert.is(await endSession(db, sessionId), true);
  assert.is(await lookUpSessionPrincipal(db, sessionId, policy), null);
  assert.is(await endSession(db, sessionId), false, "ending it twice changes nothing");
  assert.is(await lookUpSessionPrincipal(db, "no such session", policy), null);
});

test("a login beyond the sessions a user may have ends the oldest", async () => {
  const user = await newUser();
  const ids: string[] = [];
  for (let i = 0; i <= policy.maxPerUser; i++) ids.push(await logIn(user.username));
  const live = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  assert.equal(new Set(live.map((s) => s.id)), new Set(ids.slice(1)));
  assert.is(await lookUpSessionPrincipal(db, ids[0] as string, policy), null);
});

test("a session past its absolute end or idle too long stands for nobody, and housekeeping deletes it", async () => {
  const user = await newUser();
  const [expired, idle, live] = [await logIn(user.username), await logIn(user.username), await logIn(user.username)];
  await db.updateTable("sessions").set({ expires_at: sql<Date>`now() - interval '1 second'` }).where("id", "=", expired).execute();
  await db.updateTable("sessions").set({ last_seen_at: sql<Date>`now() - interval '25 hours'` }).where("id", "=", idle).execute();
  assert.is(await lookUpSessionPrincipal(db, expired, policy), null);
  assert.is(await lookUpSessionPrincipal(db, idle, policy), null);
  assert.ok(await lookUpSessionPrincipal(db, live, policy));
  const forgotten = await forgetExpiredAuthRecords(db, policy);
  assert.ok(forgotten.sessions >= 2);
  const left = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  assert.equal(
    left.map((s) => s.id),
    [live],
  );
});

test("a look-up touches a session seen more than a minute ago, so that idleness counts from its last use", async () => {
  const user = await newUser();
  const sessionId = await logIn(user.username);
  const seen = () => db.selectFrom("sessions").select("last_seen_at").where("id", "=", sessionId).executeTakeFirstOrThrow();
  await db.updateTable("sessions").set({ last_seen_at: sql<Date>`now() - interval '10 minutes'` }).where("id", "=", sessionId).execute();
  const before = (await seen()).last_seen_at;
  await lookUpSessionPrincipal(db, sessionId, policy);
  assert.ok((await seen()).last_seen_at.getTime() > before.getTime() + 9 * 60_000);
});

test.after(() => testDb.close());
test.run();
