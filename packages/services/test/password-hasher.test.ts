import { test } from "uvu";
import * as assert from "uvu/assert";
import { restAfterJob } from "../src/auth/password-hasher.ts";
import { createPasswordHasher } from "../src/index.ts";

test("hashes as bcrypt and verifies: right password, wrong password, unreadable hash", async () => {
  const hasher = createPasswordHasher({ workers: 1, cost: 10 });
  try {
    const hash = await hasher.hash("correct horse battery");
    assert.match(hash, /^\$2[aby]\$10\$/);
    assert.is(await hasher.verify("correct horse battery", hash), true);
    assert.is(await hasher.verify("correct horse batterz", hash), false);
    assert.is(await hasher.verify("correct horse battery", "not a bcrypt hash"), false);
  } finally {
    await hasher.close();
  }
});

test("a worker rests after a job only while the event loop was busy, for its share of the time", () => {
  assert.is(restAfterJob(70, 0.95, 0.5), 70, "half of the time while busy: rests as long as it worked");
  assert.is(restAfterJob(70, 0.95, 0.25), 210);
  assert.is(restAfterJob(70, 0.5, 0.5), 0, "a quiet event loop never holds logins back");
  assert.is(restAfterJob(70, 0.95, 1), 0, "a share of 1 turns resting off");
});

test("close settles the job in a worker and the jobs waiting for one, and refuses new ones", async () => {
  const hasher = createPasswordHasher({ workers: 1, cost: 12 });
  const hash = await hasher.hash("correct horse battery");
  const running = hasher.verify("correct horse battery", hash);
  const waiting = hasher.hash("another password").then(
    () => "hashed",
    (error: Error) => error.message,
  );
  await hasher.close();
  assert.is(await running, false, "cut off before it could match");
  assert.is(await waiting, "password hasher is closed");
  assert.is(await hasher.verify("correct horse battery", hash), false);
});

test.run();
