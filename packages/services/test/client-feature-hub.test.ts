import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type ClientFeatureUpdate,
  createClientFeatureHub,
  createClientFeatureHubs,
  createFeature,
  loadClientFeatures,
  setFeatureEnvironmentEnabled,
} from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { db } = testDb;
const flip = (featureName: string, enabled: boolean) =>
  setFeatureEnvironmentEnabled(db, null, { projectId: "default", featureName, environment: "development" }, enabled);

let loads = 0;
const load = () => {
  loads++;
  return loadClientFeatures(db, "development", ["*"]);
};

await createFeature(db, null, "default", { name: "hub-a" });
await createFeature(db, null, "default", { name: "hub-b" });

test("a hub starts at the event log's revision and hands each change, diffed, to its subscribers under a new revision", async () => {
  const hub = createClientFeatureHub(load);
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
  const hub = createClientFeatureHub(load, 3);
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
  const hub = createClientFeatureHub(load);
  await hub.ready();
  const before = loads;
  await Promise.all(Array.from({ length: 10 }, () => hub.refresh()));
  assert.is(loads - before, 2);
});

test("hubs: one per environment and project set, whatever the order; idle hubs reload only when asked", async () => {
  const errors: unknown[] = [];
  const hubs = createClientFeatureHubs(db, { onError: (error) => errors.push(error) });
  hubs.resume();
  assert.is(hubs.hubFor("development", ["b", "a"]), hubs.hubFor("development", ["a", "b", "a"]));
  assert.is.not(hubs.hubFor("development", ["a"]), hubs.hubFor("production", ["a"]));
  const hub = hubs.hubFor("development", ["*"]);
  await hub.ready();
  const revision = hub.revision;
  await flip("hub-b", false);
  hubs.changed();
  // No streams: nothing was read at the change, the next ready() reads.
  assert.is(hub.revision, revision);
  await hub.ready();
  assert.ok(hub.revision > revision);
  assert.equal(errors, []);
});

test.after(() => testDb.close());
test.run();
