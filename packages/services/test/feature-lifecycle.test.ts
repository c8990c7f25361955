import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  completeFeature,
  createClientMetricsBuffer,
  createFeature,
  featureLifecycle,
  storeClientMetrics,
  ValidationError,
} from "../src/index.ts";
import { restartFeatureLifecycles } from "../src/feature-lifecycle/record-stages.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;

const path = (featureName: string) => ({ projectId: "default", featureName });
const stages = async (flag: string) => (await featureLifecycle(db, path(flag))).map((s) => s.stage);

async function seen(flag: string, environment: string): Promise<void> {
  const buffer = createClientMetricsBuffer();
  const now = new Date().toISOString();
  buffer.add(environment, {
    appName: "lifecycle",
    instanceId: "i",
    bucket: { start: now, stop: now, toggles: { [flag]: { yes: 1, no: 0 } } },
  });
  await storeClientMetrics(db, buffer.drain());
}

test("a revived flag starts over in initial, its earlier stages forgotten, as in Unleash", async () => {
  const { name } = await createFeature(db, null, "default", { name: "revived" });
  await seen(name, "development");
  await completeFeature(db, null, path(name), { status: "discarded" });
  assert.equal(await stages(name), ["initial", "pre-live", "completed"]);
  const before = Date.now();
  await write((trx) => restartFeatureLifecycles(trx, [name]));
  const [initial, ...rest] = await featureLifecycle(db, path(name));
  assert.equal([initial?.stage, rest], ["initial", []]);
  assert.ok((initial?.enteredStageAt.getTime() ?? 0) >= before - 1000, "entered when it was revived");
});

test("complete checks its body before anything else", async () => {
  const { name } = await createFeature(db, null, "default", { name: "completed-badly" });
  await rejects(completeFeature(db, null, path(name), { status: "done" }), ValidationError);
  await rejects(completeFeature(db, null, path("no-such-flag"), { status: "done" }), ValidationError);
  assert.equal(await stages(name), ["initial"]);
});

test.after(async () => {
  await testDb.close();
});

test.run();
