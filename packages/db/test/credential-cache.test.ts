import { test } from "uvu";
import * as assert from "uvu/assert";
import { createCredentialCache, type CredentialLookup } from "../src/credential-cache.ts";

const alice = { userId: 7, username: "alice" };
type Alice = typeof alice;
const found: CredentialLookup<Alice> = { value: alice, tags: ["user:7"], expiresInMs: null };

function counting(answer: CredentialLookup<Alice> | null = found) {
  let calls = 0;
  return {
    lookUp: async () => {
      calls++;
      return answer;
    },
    calls: () => calls,
  };
}

test("answers from the cache once resumed, and looks up again after an invalidation of its tag", async () => {
  const cache = createCredentialCache<Alice>({ ttlMs: 60_000 });
  const db = counting();
  await cache.resolve("c", db.lookUp);
  await cache.resolve("c", db.lookUp);
  assert.is(db.calls(), 2, "suspended at first: nothing is cached before the listener hears changes");
  cache.resume();
  await cache.resolve("c", db.lookUp);
  assert.is(await cache.resolve("c", db.lookUp), alice);
  assert.is(db.calls(), 3);
  cache.invalidate("token:7");
  await cache.resolve("c", db.lookUp);
  assert.is(db.calls(), 3, "another tag leaves it");
  cache.invalidate("user:7");
  await cache.resolve("c", db.lookUp);
  assert.is(db.calls(), 4);
});

test("a look-up that overlapped an invalidation is not kept: it may have read the old row", async () => {
  const cache = createCredentialCache<Alice>({ ttlMs: 60_000 });
  cache.resume();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const slow = async () => {
    calls++;
    await gate;
    return found;
  };
  const pending = cache.resolve("c", slow);
  cache.invalidate("user:7");
  release();
  assert.is(await pending, alice);
  await cache.resolve("c", slow);
  assert.is(calls, 2);
});

test("unknown credentials, expired answers and a suspended cache are never served from memory", async () => {
  const cache = createCredentialCache<Alice>({ ttlMs: 60_000 });
  cache.resume();
  const nobody = counting(null);
  assert.is(await cache.resolve("x", nobody.lookUp), null);
  await cache.resolve("x", nobody.lookUp);
  assert.is(nobody.calls(), 2);
  const expired = counting({ ...found, expiresInMs: 0 });
  await cache.resolve("e", expired.lookUp);
  await cache.resolve("e", expired.lookUp);
  assert.is(expired.calls(), 2);
  const db = counting();
  await cache.resolve("c", db.lookUp);
  cache.suspend();
  await cache.resolve("c", db.lookUp);
  assert.is(db.calls(), 2);
});

test("requests that miss together share one look-up; one after an invalidation looks up again", async () => {
  const cache = createCredentialCache<Alice>({ ttlMs: 60_000 });
  cache.resume();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const slow = async () => {
    calls++;
    await gate;
    return found;
  };
  const first = cache.resolve("c", slow);
  const second = cache.resolve("c", slow);
  assert.is(calls, 1, "the second request waits for the first one's look-up");
  cache.invalidate("user:7");
  const third = cache.resolve("c", slow);
  assert.is(calls, 2, "a request after an invalidation does not take a look-up that may have read the old row");
  release();
  assert.equal(await Promise.all([first, second, third]), [alice, alice, alice]);
  assert.is(await cache.resolve("c", slow), alice);
  assert.is(calls, 2, "the look-up that began after the invalidation was kept");
});

test("ttl 0 turns it off", async () => {
  const cache = createCredentialCache<Alice>({ ttlMs: 0 });
  cache.resume();
  const db = counting();
  await cache.resolve("c", db.lookUp);
  await cache.resolve("c", db.lookUp);
  assert.is(db.calls(), 2);
});

test.run();
