import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ClientFeatureUpdate, createFeature, createServedFeatures, setFeatureEnvironmentEnabled } from "../src/index.ts";
import { createClientScopeHub, loadClientFeatures } from "../src/testing.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const flip = (featureName: string, enabled: boolean) =>
  write((trx) => setFeatureEnvironmentEnabled(trx, null, { projectId: "default", featureName, environment: "development" }, enabled));

let loads = 0;
const load = () => {
  loads++;
  return loadClientFeatures(db, "development", ["*"]);
};

await write((trx) => createFeature(trx, null, "default", { name: "hub-a" }));
await write((trx) => createFeature(trx, null, "default", { name: "hub-b" }));

test("a hub starts at the event log's revision and hands each change, diffed, to its subscribers under a new revision", async () => {
  const hub = createClientScopeHub(load);
  await hub.ready();
  const start = hub.revision;
  const last = await db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  assert.is(start, last.id);
  assert.equal(
    hub.hydration().features.map((f) => f.name),
    ["hub-a", "hub-b"],
  );

  const updates: ClientFeatureUpdate[] = [];
  hub.subscribe((update) => updates.push(update));
  await flip("hub-a", true);
  await hub.refresh();
  assert.is(updates.length, 1);
  assert.ok(hub.revision > start);
  assert.equal(
    updates[0]?.events.map((e) => [e.type, e.eventId, e.type === "feature-updated" && e.feature.enabled]),
    [["feature-updated", hub.revision, true]],
  );

  // Nothing changed: no update, no new revision.
  await hub.refresh();
  assert.is(updates.length, 1);
  assert.equal(hub.deltaSince(hub.revision), { kind: "unchanged", revision: hub.revision });
  assert.is(hub.deltaSince(start).kind, "events");
  assert.is(hub.deltaSince(undefined).kind, "hydration");
  assert.is(hub.deltaSince(start - 1).kind, "hydration", "a revision it never had");
});

test("the history is bounded: past it an SDK gets a hydration; within it, one event per feature however often it changed", async () => {
  const hub = createClientScopeHub(load, 3);
  await hub.ready();
  const start = hub.revision;
  const seen: number[] = [];
  for (const enabled of [false, true, false]) {
    await flip("hub-a", enabled);
    await hub.refresh();
    seen.push(hub.revision);
  }
  const sinceStart = hub.deltaSince(start);
  assert.is(sinceStart.kind, "events");
  assert.equal(
    sinceStart.kind === "events" && sinceStart.events.map((e) => e.type === "feature-updated" && [e.feature.name, e.feature.enabled]),
    [["hub-a", false]],
  );
  await flip("hub-b", true);
  await hub.refresh();
  assert.is(hub.deltaSince(start).kind, "hydration", "the first revision fell out of the history");
  const sinceFirst = hub.deltaSince(seen[0]);
  assert.equal(sinceFirst.kind === "events" && sinceFirst.events.map((e) => e.type === "feature-updated" && e.feature.name), [
    "hub-a",
    "hub-b",
  ]);
});

test("refreshes asked for while one runs share one more read", async () => {
  const hub = createClientScopeHub(load);
  await hub.ready();
  const before = loads;
  await Promise.all(Array.from({ length: 10 }, () => hub.refresh()));
  assert.is(loads - before, 2);
});

test("one hub per environment and project set, whatever the order; idle scopes reload only when asked", async () => {
  const errors: unknown[] = [];
  const served = createServedFeatures(db, { onError: (error) => errors.push(error) });
  served.resume();
  const scope = (environment: string, projects: string[]) => ({ environment, projects });
  assert.is(served.hub(scope("development", ["b", "a"])), served.hub(scope("development", ["a", "b", "a"])));
  assert.is.not(served.hub(scope("development", ["a"])), served.hub(scope("production", ["a"])));
  const hub = served.hub(scope("development", ["*"]));
  await hub.ready();
  const revision = hub.revision;
  await flip("hub-b", false);
  served.invalidate();
  // No streams: nothing was read at the change, the next ready() reads.
  assert.is(hub.revision, revision);
  await hub.ready();
  assert.ok(hub.revision > revision);
  assert.equal(errors, []);
});

const everything = { environment: "development", projects: ["*"] };
const query = { inlineSegmentConstraints: false };

test("a scope's snapshot, its rendered bodies and its frontend evaluator are kept until a change is heard, and are the hub's", async () => {
  const served = createServedFeatures(db, { onError: (error) => assert.unreachable(String(error)) });
  served.resume();
  const set = await served.features(everything);
  assert.is(await served.features(everything), set, "the same snapshot");
  assert.is(served.hub(everything).features(), set, "the hub serves the same snapshot");
  const rendered = await served.rendered(everything, query);
  assert.is(await served.rendered(everything, query), rendered, "rendered once");
  assert.is.not(await served.rendered(everything, { inlineSegmentConstraints: true }), rendered, "one rendering per query");
  const evaluator = await served.frontendEvaluator(everything);
  assert.is(await served.frontendEvaluator(everything), evaluator, "built once");

  const enabled = set.features.find((f) => f.name === "hub-a")?.enabled;
  await flip("hub-a", !enabled);
  // Heard by no one yet: still the snapshot.
  assert.is(await served.features(everything), set);
  served.invalidate();
  const next = await served.features(everything);
  assert.is.not(next, set);
  assert.is(next.features.find((f) => f.name === "hub-a")?.enabled, !enabled);
  assert.is.not((await served.rendered(everything, query)).etag, rendered.etag, "a new ETag for the change");
  assert.is.not(await served.frontendEvaluator(everything), evaluator);
});

test("while changes cannot be heard (before resume, after suspend) every read is fresh", async () => {
  const served = createServedFeatures(db, { onError: (error) => assert.unreachable(String(error)) });
  const first = await served.features(everything);
  assert.is.not(await served.features(everything), first, "not kept before resume");
  served.resume();
  const kept = await served.features(everything);
  assert.is(await served.features(everything), kept);
  served.suspend();
  assert.is.not(await served.features(everything), kept, "not kept once suspended");
});

test("a read asked for while a reload for streams runs waits for it, so it sees a change heard before it", async () => {
  const served = createServedFeatures(db, { onError: (error) => assert.unreachable(String(error)) });
  served.resume();
  const hub = served.hub(everything);
  await hub.ready();
  const unsubscribe = hub.subscribe(() => {});
  const enabled = hub.features().features.find((f) => f.name === "hub-b")?.enabled;
  await flip("hub-b", !enabled);
  // A scope with streams reloads at once; the poll that follows gets that reload, not the old snapshot.
  served.invalidate();
  const set = await served.features(everything);
  assert.is(set.features.find((f) => f.name === "hub-b")?.enabled, !enabled);
  unsubscribe();
});

test.after(() => testDb.close());
test.run();
