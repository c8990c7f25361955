import { test } from "uvu";
import * as assert from "uvu/assert";
import { restAfterJob } from "../src/rest-after-job.ts";
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
  assert.is(restAfterJob(5_000, 0.95, 0.5), 1_000, "one long job holds logins back for a second at most");
});

test("close settles the job in a worker and the jobs waiting for one as ServiceUnavailable, not as wrong passwords", async () => {
  const hasher = createPasswordHasher({ workers: 1, cost: 12 });
  const hash = await hasher.hash("correct horse battery");
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (value) => `resolved ${value}`,
      (error: Error) => `${error.name}: ${error.message}`,
    );
  const running = outcome(hasher.verify("correct horse battery", hash));
  const waiting = outcome(hasher.hash("another password"));
  await hasher.close();
  const stopping = "ServiceUnavailable: The server is stopping; try again shortly.";
  assert.is(await running, stopping, "cut off before it could match, which says nothing about the password");
  assert.is(await waiting, stopping);
  assert.is(await outcome(hasher.verify("correct horse battery", hash)), stopping);
});

test.run();
