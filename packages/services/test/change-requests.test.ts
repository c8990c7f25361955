import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  addChange,
  type ChangeAction,
  createFeature,
  featureWithEnvironments,
  moveChangeRequest,
  NoAccessError,
  NotFoundError,
  type Principal,
  RootRole,
  runDueChangeRequests,
  setChangeRequestConfig,
  ValidationError,
} from "../src/index.ts";
import { loadChangeRequests, requireChangeRequest, type StateChange } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";
import { userPrincipals } from "./support/user-principals.ts";

const { kysely: db, write, close } = await openTestDb();

const user = userPrincipals(db, "cr");

const token: Principal = { kind: "admin-token", tokenId: 1, tokenName: "ci" };
const [admin, approver, secondApprover, viewer] = [
  await user(RootRole.Admin),
  await user(RootRole.Editor),
  await user(RootRole.Editor),
  await user(RootRole.Viewer),
];

// production needs two approvals, development one; a third environment keeps change requests off.
await write(async (trx) => {
  await setChangeRequestConfig(trx, null, "default", "production", { changeRequestsEnabled: true, requiredApprovals: 2 });
  await setChangeRequestConfig(trx, null, "default", "development", { changeRequestsEnabled: true, requiredApprovals: 1 });
});

// A user has one open request per environment, so each test proposes as an author of its own.
let author: Principal;
test.before.each(async () => {
  author = await user(RootRole.Editor);
});

let featureCount = 0;
async function newFeature(): Promise<string> {
  const name = `cr-feature-${++featureCount}`;
  await createFeature(db, admin, "default", { name });
  return name;
}
const variants = (name: string) => [{ name, weight: 1000, weightType: "variable", stickiness: "default" }];
const propose = (
  by: Principal,
  feature: string,
  environment = "development",
  action: ChangeAction = "patchVariant",
  payload: unknown = { variants: variants("blue") },
) => addChange(db, by, { projectId: "default", environment, feature, action, payload }).then((request) => request.id);
const move = (by: Principal, id: number, change: StateChange) => moveChangeRequest(db, by, "default", id, change);
const stored = async (id: number) => {
  const [view] = await loadChangeRequests(db, [id], admin);
  return view as NonNullable<typeof view>;
};
const eventsFor = (id: number) =>
  db.selectFrom("events").select(["type", "data", "pre_data"]).where(sql<string>`data->>'id'`, "=", String(id)).orderBy("id").execute();
const variantsIn = async (feature: string, environment: string) =>
  (await featureWithEnvironments(db, { projectId: "default", featureName: feature })).environments
    .find((e) => e.name === environment)
    ?.variants.map((v) => v.name);

/** A request of one change, moved to `state` by its author and one approver. */
async function requestIn(state: "In review" | "Approved" | "Scheduled", feature?: string): Promise<number> {
  const id = await propose(author, feature ?? (await newFeature()));
  await move(author, id, { state: "In review" });
  if (state === "In review") return id;
  await move(approver, id, { state: "Approved" });
  if (state === "Approved") return id;
  await move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000) });
  return id;
}

test("addChange creates a Draft with the change and its events; a second change joins it", async () => {
  const [first, second] = [await newFeature(), await newFeature()];
  const id = await propose(author, first);
  assert.is(await propose(author, second, "development", "updateEnabled", { enabled: true }), id);
  const view = await stored(id);
  assert.equal(
    [view.state, view.environment, view.minApprovals, view.createdBy.id],
    ["Draft", "development", 1, (author as { userId: number }).userId],
  );
  assert.equal(
    view.features.map((f) => [f.name, f.changes.map((c) => [c.action, c.payload])]),
    [
      [first, [["patchVariant", { variants: variants("blue") }]]],
      [second, [["updateEnabled", { enabled: true }]]],
    ],
  );
  assert.equal(
    (await eventsFor(id)).map((e) => e.type),
    ["change-request-created"],
  );
  const added = await db
    .selectFrom("events")
    .select("data")
    .where("type", "=", "change-request-change-added")
    .where(sql<string>`data->>'changeRequestId'`, "=", String(id))
    .execute();
  assert.is(added.length, 2);
  assert.equal(await variantsIn(first, "development"), [], "nothing is applied before the request is");
});

test("addChange refuses tokens, environments without change requests, unknown features and bad payloads, storing nothing", async () => {
  const feature = await newFeature();
  const count = async () =>
    Number(
      (
        await db
          .selectFrom("change_requests")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  await rejects(propose(token, feature), NoAccessError);
  assert.match(
    (await rejects(propose(author, feature, "development", "patchVariant", { colour: "blue" }), ValidationError)).message,
    /The patchVariant payload/,
  );
  await setChangeRequestConfig(db, null, "default", "development", { changeRequestsEnabled: false, requiredApprovals: 1 });
  try {
    const error = await rejects(propose(author, feature), ValidationError);
    assert.is(error.message, 'Change requests are not enabled for the "development" environment of the project "default".');
  } finally {
    await setChangeRequestConfig(db, null, "default", "development", { changeRequestsEnabled: true, requiredApprovals: 1 });
  }
  await rejects(propose(author, "ghost"), NotFoundError);
  await rejects(propose(author, feature, "development", "updateEnabled", { enabled: "yes" }), ValidationError);
  await rejects(propose(author, feature, "development", "patchVariant", { variants: [{ name: "" }] }), ValidationError);
  assert.is(await count(), before);
});

test("submitting: only the author moves a Draft to review", async () => {
  const id = await propose(author, await newFeature());
  const error = await rejects(move(approver, id, { state: "In review" }), NoAccessError);
  assert.is(error.message, "Only the author can submit a change request for review.");
  await move(author, id, { state: "In review" });
  assert.is((await stored(id)).state, "In review");
  assert.equal(
    (await eventsFor(id)).map((e) => [e.type, e.pre_data]),
    [
      ["change-request-created", null],
      ["change-request-in-review", { id, state: "Draft" }],
    ],
  );
});

test("a transition the state machine does not allow is refused and changes nothing", async () => {
  const id = await propose(author, await newFeature());
  const error = await rejects(move(admin, id, { state: "Applied" }), ValidationError);
  assert.is(
    error.message,
    `Cannot move change request ${id} from "Draft" to "Applied"; from "Draft" it can go to "In review", "Cancelled".`,
  );
  assert.is((await stored(id)).state, "Draft");
  assert.equal(
    (await eventsFor(id)).map((e) => e.type),
    ["change-request-created"],
  );
});

test("approving: not one's own, not without the permission, and only Approved once enough users approve", async () => {
  const id = await propose(author, await newFeature(), "production");
  await move(author, id, { state: "In review" });
  assert.is((await rejects(move(author, id, { state: "Approved" }), NoAccessError)).message, "You cannot approve your own change request.");
  assert.is(
    (await rejects(move(viewer, id, { state: "Approved" }), NoAccessError)).message,
    'You need the "APPROVE_CHANGE_REQUEST" permission to perform this action in the "production" environment.',
  );
  await rejects(move(token, id, { state: "Approved" }), NoAccessError);
  await move(approver, id, { state: "Approved" });
  assert.equal([(await stored(id)).state, (await stored(id)).approvals.length], ["In review", 1], "one of two approvals");
  await move(approver, id, { state: "Approved" });
  assert.is((await stored(id)).approvals.length, 1, "the same user approving again counts once");
  await move(secondApprover, id, { state: "Approved" });
  assert.is((await stored(id)).state, "Approved");
  assert.equal((await eventsFor(id)).map((e) => e.type).slice(2), [
    "change-request-approval-added",
    "change-request-approval-added",
    "change-request-approved",
  ]);
});

test("a change added to an approved request sends it back to review and clears its approvals", async () => {
  const feature = await newFeature();
  const id = await requestIn("Approved", feature);
  assert.is(await propose(author, feature, "development", "updateEnabled", { enabled: true }), id);
  const view = await stored(id);
  assert.equal([view.state, view.approvals], ["In review", []]);
});

test("rejecting: by a reviewer, not by the author; a Rejected request is final", async () => {
  const id = await requestIn("In review");
  const own = await rejects(move(author, id, { state: "Rejected" }), NoAccessError);
  assert.is(own.message, "You cannot reject your own change request; cancel it instead.");
  await move(approver, id, { state: "Rejected", comment: "Not now" });
  assert.equal(
    (await stored(id)).rejections.map((r) => r.text),
    ["Not now"],
  );
  const final = await rejects(move(author, id, { state: "Cancelled" }), ValidationError);
  assert.is(
    final.message,
    `Cannot move change request ${id} from "Rejected" to "Cancelled"; from "Rejected" it can go to nothing (it is final).`,
  );
});

test("cancelling: by the author or an Admin, nobody else; a comment is kept", async () => {
  const id = await requestIn("In review");
  for (const by of [approver, viewer]) {
    assert.is(
      (await rejects(move(by, id, { state: "Cancelled" }), NoAccessError)).message,
      "Only the author or an Admin can cancel a change request.",
    );
  }
  await move(author, id, { state: "Cancelled", comment: "Changed my mind" });
  const cancelled = await stored(id);
  assert.equal([cancelled.state, cancelled.comments.map((c) => c.text)], ["Cancelled", ["Changed my mind"]]);
  const byAdmin = await requestIn("Approved");
  await move(admin, byAdmin, { state: "Cancelled" });
  assert.is((await stored(byAdmin)).state, "Cancelled");
});

test("scheduling: needs APPLY_CHANGE_REQUEST and a time in the future", async () => {
  const id = await requestIn("Approved");
  await rejects(move(viewer, id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 60_000) }), NoAccessError);
  assert.is((await rejects(move(approver, id, { state: "Scheduled" }), ValidationError)).message, "Scheduling needs `scheduledAt`.");
  assert.is(
    (await rejects(move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() - 60_000) }), ValidationError)).message,
    "`scheduledAt` must be in the future.",
  );
  assert.is((await stored(id)).state, "Approved");
  const at = new Date(Date.now() + 3600_000);
  await move(approver, id, { state: "Scheduled", scheduledAt: at });
  const view = await stored(id);
  assert.equal([view.state, view.schedule], ["Scheduled", { scheduledAt: at, status: "pending" }]);
});

test("applying by hand and by the scheduler take one path: the same changes and the same events", async () => {
  const [manual, scheduled] = [await newFeature(), await newFeature()];
  const manualId = await requestIn("Scheduled", manual);
  const scheduledId = await requestIn("Scheduled", scheduled);
  const eventCount = async () => (await db.selectFrom("events").select("id").execute()).length;

  let before = await eventCount();
  await move(approver, manualId, { state: "Applied" });
  const manualEvents = await db
    .selectFrom("events")
    .select(["type", "feature_name", "data", "pre_data"])
    .where("id", ">", before)
    .orderBy("id")
    .execute();

  await db
    .updateTable("change_requests")
    .set({ scheduled_at: sql<Date>`now() - interval '1 second'` })
    .where("id", "=", scheduledId)
    .execute();
  before = await eventCount();
  assert.equal(await runDueChangeRequests(db), { applied: [scheduledId], failed: [], retrying: [] });
  const scheduledEvents = await db
    .selectFrom("events")
    .select(["type", "feature_name", "data", "pre_data"])
    .where("id", ">", before)
    .orderBy("id")
    .execute();

  assert.equal(
    manualEvents.map((e) => e.type),
    ["feature-environment-variants-updated", "change-request-applied"],
  );
  const normalise = (events: typeof manualEvents, id: number, feature: string) =>
    JSON.parse(JSON.stringify(events).replaceAll(`"${feature}"`, '"F"').replaceAll(`"id":${id}`, '"id":0'));
  assert.equal(normalise(manualEvents, manualId, manual), normalise(scheduledEvents, scheduledId, scheduled));
  assert.equal(manualEvents.at(-1), {
    type: "change-request-applied",
    feature_name: null,
    data: { id: manualId, state: "Applied" },
    pre_data: { id: manualId, state: "Scheduled" },
  });
  for (const [id, feature] of [
    [manualId, manual],
    [scheduledId, scheduled],
  ] as const) {
    assert.is((await stored(id)).state, "Applied");
    assert.equal(await variantsIn(feature, "development"), ["blue"]);
  }
});

test("applying needs APPLY_CHANGE_REQUEST; a change that is no longer valid is refused and nothing is applied", async () => {
  const feature = await newFeature();
  const id = await propose(author, feature, "development", "updateEnabled", { enabled: true });
  await propose(author, await newFeature(), "development");
  await move(author, id, { state: "In review" });
  await move(approver, id, { state: "Approved" });
  await rejects(move(viewer, id, { state: "Applied" }), NoAccessError);
  // The second feature goes away after it was proposed, so its change can no longer be applied.
  const gone = (await stored(id)).features[1]?.name as string;
  await db.deleteFrom("features").where("name", "=", gone).execute();
  const error = await rejects(move(approver, id, { state: "Applied" }), ValidationError);
  assert.match(error.message, /can no longer be applied/);
  assert.is((await stored(id)).state, "Approved");
  const enabled = (await featureWithEnvironments(db, { projectId: "default", featureName: feature })).environments.find(
    (e) => e.name === "development",
  )?.enabled;
  assert.is(enabled, false, "the first change was rolled back with the second");
});

test("requireChangeRequest: an unknown project or request is NotFoundError", async () => {
  const id = await propose(author, await newFeature());
  assert.is((await requireChangeRequest(db, "default", id)).id, id);
  assert.is((await rejects(requireChangeRequest(db, "ghost", id), NotFoundError)).message, 'The project "ghost" does not exist.');
  assert.is(
    (await rejects(requireChangeRequest(db, "default", 999_999), NotFoundError)).message,
    'There is no change request 999999 in the project "default".',
  );
});

test.after(() => close());
test.run();
