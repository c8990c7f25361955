import { createTestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createUser, DEFAULT_SESSION_POLICY, login, PasswordMismatch, RootRole, TooManyRequests } from "../src/index.ts";
import type { LoginLimits } from "../src/testing.ts";
import { scryptHasher } from "./support/scrypt-hasher.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
const hasher = scryptHasher();
const PASSWORD = "correct horse battery";
await createUser(db, hasher, null, { username: "dana", password: PASSWORD, rootRole: RootRole.Editor });

const LOOSE: LoginLimits = { perAddressPerMinute: 1000, streakBeforeDelay: 1000, maxDelaySeconds: 1, perAccountPerHour: 1000 };
const attempt = (limits: Partial<LoginLimits>, username: string, password: string, ip: string) =>
  login(db, hasher, { sessions: DEFAULT_SESSION_POLICY, limits: { ...LOOSE, ...limits } }, { username, password, ip, userAgent: null });

/** Runs `count` attempts at once and tells how each ended. */
async function atOnce(count: number, run: (i: number) => Promise<unknown>) {
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      run(i).then(
        () => "ok",
        (error: unknown) => (error as Error).constructor.name,
      ),
    ),
  );
  const tally: Record<string, number> = {};
  for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;
  return tally;
}

const failuresFrom = async (ip: string) =>
  Number(
    (
      await db
        .selectFrom("login_failures")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("ip", "=", ip)
        .executeTakeFirstOrThrow()
    ).n,
  );

test("concurrent wrong passwords from one address: exactly the limit is checked, the rest refused", async () => {
  const tally = await atOnce(20, () => attempt({ perAddressPerMinute: 3 }, "dana", "wrong password", "10.0.0.1"));
  assert.equal(tally, { PasswordMismatch: 3, TooManyRequests: 17 });
  assert.is(await failuresFrom("10.0.0.1"), 3, "only the admitted attempts are stored");
});

test("an account over its limit refuses the addresses that failed for it, never one that has not", async () => {
  await createUser(db, hasher, null, { username: "greta", password: PASSWORD, rootRole: RootRole.Editor });
  // Spelt two ways, counted as one account; each address fails once, so none is refused yet.
  const first = await atOnce(20, (i) => attempt({ perAccountPerHour: 4 }, i % 2 ? "Greta" : "greta", "wrong password", `10.1.0.${i}`));
  assert.equal(first, { PasswordMismatch: 20 });
  const again = await atOnce(10, (i) => attempt({ perAccountPerHour: 4 }, "greta", PASSWORD, `10.1.0.${i}`));
  assert.equal(again, { TooManyRequests: 10 }, "an address that failed is refused even the right password");
  const owner = await attempt({ perAccountPerHour: 4 }, "greta", PASSWORD, "10.1.1.1");
  assert.is(owner.user.username, "greta", "the owner on another address logs in");
});

test("a refused attempt leaves nothing behind, and a right password under the limit logs in and clears its reservation", async () => {
  const ip = "10.2.0.1";
  await attempt({ perAddressPerMinute: 2 }, "nobody", "wrong password", ip).catch((e: unknown) => assert.instance(e, PasswordMismatch));
  const { user, sessionId } = await attempt({ perAddressPerMinute: 2 }, "dana", PASSWORD, ip);
  assert.is(user.username, "dana");
  assert.ok(await db.selectFrom("sessions").select("id").where("id", "=", sessionId).executeTakeFirst());
  assert.is(await failuresFrom(ip), 1, "the success's reserved row is gone");
  await attempt({ perAddressPerMinute: 2 }, "nobody", "wrong password", ip).catch(() => {});
  const refused = await attempt({ perAddressPerMinute: 2 }, "dana", PASSWORD, ip).catch((e: unknown) => e);
  assert.instance(refused, TooManyRequests, "the limit refuses even the right password");
  assert.is(await failuresFrom(ip), 2);
});

test("consecutive failures of one account from one address start a delay", async () => {
  const ip = "10.3.0.1";
  for (let i = 0; i < 2; i++) await attempt({ streakBeforeDelay: 2, maxDelaySeconds: 60 }, "dana", "wrong password", ip).catch(() => {});
  const refused = await attempt({ streakBeforeDelay: 2, maxDelaySeconds: 60 }, "dana", PASSWORD, ip).catch((e: unknown) => e);
  assert.instance(refused, TooManyRequests);
  assert.ok((refused as TooManyRequests).retryAfterSeconds > 0);
  const elsewhere = await attempt({ streakBeforeDelay: 2, maxDelaySeconds: 60 }, "dana", PASSWORD, "10.3.0.2");
  assert.is(elsewhere.user.username, "dana", "another address is not delayed");
});

test.after(() => testDb.close());
test.run();
