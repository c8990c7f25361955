import { connectDatabase } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { type Kysely, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Database } from "@vexil/db";
import {
  addChange,
  createFeature,
  featureEnvironmentVariants,
  NotFoundError,
  pendingChangeRequestsFor,
  type Principal,
} from "../src/index.ts";
import { replaceFeatureEnvironmentVariants, setChangeRequestConfig } from "../src/index.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
const { id: userId } = await db.insertInto("users").values({ username: "dana", root_role: 2 }).returning("id").executeTakeFirstOrThrow();
const dana: Principal = { kind: "user", userId, username: "dana", rootRole: 2, via: "session" };
const variant = { name: "blue", weight: 1000, weightType: "variable", stickiness: "default" } as const;

await db.transaction().execute(async (trx) => {
  await createFeature(trx, null, "default", { name: "checkout" });
  await createFeature(trx, null, "default", { name: "search" });
  await replaceFeatureEnvironmentVariants(trx, null, { projectId: "default", featureName: "checkout", environment: "production" }, [
    variant,
  ]);
  await setChangeRequestConfig(trx, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 1 });
  await addChange(trx, dana, {
    projectId: "default",
    environment: "production",
    feature: "search",
    action: "updateEnabled",
    payload: { enabled: true },
  });
});

/** Reads variants and the pending list, which every dashboard and SDK-facing page polls. */
async function hotReads(on: Kysely<Database>) {
  const path = (featureName: string, environment = "production") => ({ projectId: "default", featureName, environment });
  // Asked in one turn, so they share one batched look-up; each still gets its own answer.
  const [checkout, search, missing] = await Promise.all([
    featureEnvironmentVariants(on, path("checkout")),
    featureEnvironmentVariants(on, path("search")),
    featureEnvironmentVariants(on, path("checkout", "nowhere")).catch((error: unknown) => error),
  ]);
  assert.equal(
    checkout?.map((v) => v.name),
    ["blue"],
  );
  assert.equal(search, []);
  assert.instance(missing, NotFoundError);
  assert.match((missing as Error).message, /environment "nowhere" does not exist/);
  const pending = await pendingChangeRequestsFor(on, dana, "default");
  assert.equal(
    pending.map((r) => [r.state, r.environment, r.createdBy.username, r.features.map((f) => f.name)]),
    [["Draft", "production", "dana", ["search"]]],
  );
  assert.equal(
    await pendingChangeRequestsFor(on, { kind: "user", userId: userId + 1, username: "eve", rootRole: 2, via: "session" }, "default"),
    [],
  );
  const unknown = await pendingChangeRequestsFor(on, dana, "nope").catch((error: unknown) => error);
  assert.instance(unknown, NotFoundError);
}

test("the hot reads answer right", () => hotReads(db));

// Named statements live in a Postgres session; PGlite has one connection and no statement names.
if (testDb.databaseUrl) {
  test("on Postgres the hot reads run as named prepared statements", async () => {
    const single = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 1 });
    try {
      await hotReads(single.kysely);
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(single.kysely);
      assert.equal(
        rows.map((r) => r.name),
        [
          "vexil_change_request_changes_by_ids",
          "vexil_change_request_people",
          "vexil_change_request_reviews_by_ids",
          "vexil_change_requests_by_ids",
          "vexil_locate_feature_environments",
          "vexil_pending_change_requests",
        ],
      );
    } finally {
      await single.close();
    }
  });
}

test.after(() => testDb.close());
test.run();
