import { isStatementTimeout } from "@vexil/db";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addChange,
  createFeature,
  DomainError,
  featureWithEnvironments,
  moveChangeRequest,
  type Principal,
  RootRole,
  runDueChangeRequests,
  setChangeRequestConfig,
} from "../src/index.ts";
import { loadChangeRequests, type StateChange } from "../src/testing.ts";
import { openTestDb } from "./support/test-db.ts";
import { userPrincipals } from "./support/user-principals.ts";

const { kysely: db, write, close } = await openTestDb();

const user = userPrincipals(db, "sched");
const [admin, approver] = [await user(RootRole.Admin), await user(RootRole.Editor)];
await write((trx) => setChangeRequestConfig(trx, null, "default", "development", { changeRequestsEnabled: true, requiredApprovals: 1 }));

// The database fails every write to a "flaky-" feature's environment the way a statement timeout
// does: a failure of the moment, not of the change.
await sql`
  create function test_flaky_write() returns trigger language plpgsql as $$
  begin
    raise exception 'canceling statement due to statement timeout' using errcode = '57014';
  end
  $$`.execute(db);
const makeFlaky = () =>
  sql`create trigger test_flaky before insert or update on feature_environments
      for each row when (new.feature_name like 'flaky-%') execute function test_flaky_write()`.execute(db);
const makeSteady = () => sql`drop trigger if exists test_flaky on feature_environments`.execute(db);

let featureCount = 0;
const move = (by: Principal, id: number, change: StateChange) => write((trx) => moveChangeRequest(trx, by, "default", id, change));

/** A due Scheduled request of one variants change to a new feature named `prefix-n`. */
async function dueRequest(prefix: string): Promise<{ id: number; feature: string }> {
  const feature = `${prefix}-${++featureCount}`;
  const author = await user(RootRole.Editor);
  await write((trx) => createFeature(trx, admin, "default", { name: feature }));
  const { id } = await write((trx) =>
    addChange(trx, author, {
      projectId: "default",
      environment: "development",
      feature,
      action: "patchVariant",
      payload: { variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }] },
    }),
  );
  await move(author, id, { state: "In review" });
  await move(approver, id, { state: "Approved" });
  await move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000) });
  await db.updateTable("change_requests").set({ scheduled_at: sql<Date>`now() - interval '1 second'` }).where("id", "=", id).execute();
  return { id, feature };
}
const row = (id: number) =>
  db
    .selectFrom("change_requests")
    .select(["state", "schedule_status", "schedule_reason", "schedule_attempts", "schedule_retry_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const variantsIn = async (feature: string) =>
  (await featureWithEnvironments(db, { projectId: "default", featureName: feature })).environments
    .find((e) => e.name === "development")
    ?.variants.map((v) => v.name);
const eventTypes = async (id: number) =>
  (
    await db
      .selectFrom("events")
      .select("type")
      .where(sql<string>`data->>'id'`, "=", String(id))
      .where("type", "in", ["change-request-applied", "change-request-schedule-failed"])
      .orderBy("id")
      .execute()
  ).map((e) => e.type);

/** A failed request has its one event, nothing applied, and is not picked up again. */
async function assertFailedForGood(id: number, feature: string): Promise<void> {
  assert.equal(await eventTypes(id), ["change-request-schedule-failed"]);
  assert.equal(await variantsIn(feature), []);
  assert.equal(
    await runDueChangeRequests(db, { retryDelayMs: 0 }),
    { applied: [], failed: [], retrying: [] },
    "a failed request stays failed",
  );
}

test("a change that no longer applies fails its scheduled request at once, with the reason", async () => {
  const { id, feature } = await dueRequest("broken");
  await sql`update change_request_changes set payload = '{"variants": "nope"}'::jsonb where change_request_id = ${id}`.execute(db);
  assert.equal(await runDueChangeRequests(db, { retryDelayMs: 0 }), { applied: [], failed: [id], retrying: [] });
  const stored = await row(id);
  assert.equal([stored.state, stored.schedule_status, stored.schedule_attempts], ["Scheduled", "failed", 0]);
  assert.match(stored.schedule_reason ?? "", /can no longer be applied/);
  const [view] = await loadChangeRequests(db, [id], admin);
  assert.equal([view?.schedule?.status, view?.schedule?.reason], ["failed", stored.schedule_reason]);
  await assertFailedForGood(id, feature);
});

test("a transient failure leaves the request Scheduled, backs off, and a later pass applies it", async () => {
  const { id, feature } = await dueRequest("flaky");
  await makeFlaky();
  try {
    const first = await runDueChangeRequests(db, { retryDelayMs: 60_000 });
    assert.equal([first.applied, first.failed, first.retrying.map((r) => [r.id, r.attempts])], [[], [], [[id, 1]]]);
    assert.ok(isStatementTimeout(first.retrying[0]?.error), "the database's own error is reported");
    assert.not.instance(first.retrying[0]?.error, DomainError);
    const stored = await row(id);
    assert.equal(
      [stored.state, stored.schedule_status, stored.schedule_reason, stored.schedule_attempts],
      ["Scheduled", "pending", null, 1],
    );
    assert.ok(stored.schedule_retry_at && stored.schedule_retry_at.getTime() > Date.now() + 30_000, "the next attempt waits");
    const [view] = await loadChangeRequests(db, [id], admin);
    assert.equal([view?.state, view?.schedule?.status, view?.schedule?.reason], ["Scheduled", "pending", undefined]);
    assert.equal(await variantsIn(feature), [], "nothing half-applied");
    assert.equal(await eventTypes(id), []);

    // Before the delay is over, no pass (of this or any instance: the delay is on the row) tries again.
    assert.equal(await runDueChangeRequests(db, { retryDelayMs: 60_000 }), { applied: [], failed: [], retrying: [] });
    assert.is((await row(id)).schedule_attempts, 1);
  } finally {
    await makeSteady();
  }
  await db.updateTable("change_requests").set({ schedule_retry_at: sql<Date>`now() - interval '1 second'` }).where("id", "=", id).execute();
  assert.equal(await runDueChangeRequests(db, { retryDelayMs: 60_000 }), { applied: [id], failed: [], retrying: [] });
  assert.equal((await row(id)).state, "Applied");
  assert.equal(await variantsIn(feature), ["blue"]);
  assert.equal(await eventTypes(id), ["change-request-applied"]);
});

test("after maxAttempts transient failures the request is recorded failed, with the count and the last error", async () => {
  const { id, feature } = await dueRequest("flaky");
  await makeFlaky();
  try {
    // One attempt per pass: the request that failed is not tried again in the same pass.
    for (const attempts of [1, 2]) {
      const outcome = await runDueChangeRequests(db, { retryDelayMs: 0, maxAttempts: 3 });
      assert.equal([outcome.failed, outcome.retrying.map((r) => [r.id, r.attempts])], [[], [[id, attempts]]]);
      assert.equal((await row(id)).schedule_status, "pending");
    }
    assert.equal(await runDueChangeRequests(db, { retryDelayMs: 0, maxAttempts: 3 }), { applied: [], failed: [id], retrying: [] });
  } finally {
    await makeSteady();
  }
  const stored = await row(id);
  assert.equal(
    [stored.state, stored.schedule_status, stored.schedule_attempts, stored.schedule_retry_at],
    ["Scheduled", "failed", 3, null],
  );
  assert.is(stored.schedule_reason, "Failed to apply 3 times on transient errors; the last: canceling statement due to statement timeout");
  await assertFailedForGood(id, feature);
});

test("a manual apply that meets a transient failure throws the database's error, not a ValidationError, and applies nothing", async () => {
  const { id, feature } = await dueRequest("flaky");
  await makeFlaky();
  let thrown: unknown;
  try {
    await move(approver, id, { state: "Applied" });
  } catch (error) {
    thrown = error;
  } finally {
    await makeSteady();
  }
  assert.ok(isStatementTimeout(thrown), String(thrown));
  assert.not.instance(thrown, DomainError);
  assert.equal([(await row(id)).state, await variantsIn(feature)], ["Scheduled", []]);
  await move(approver, id, { state: "Applied" });
  assert.equal([(await row(id)).state, await variantsIn(feature)], ["Applied", ["blue"]]);
});

test.after(() => close());
test.run();
