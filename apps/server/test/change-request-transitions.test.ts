import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Every transition of docs/change-requests.md#change-request-states, allowed and refused, walked over HTTP by three users.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const admin = await userWithRole(srv, "admin", "tr-admin");
const author = await userWithRole(srv, "editor", "tr-author");
const approver = await userWithRole(srv, "editor", "tr-approver");
type Who = { headers: Record<string, string> };

const P = "/api/admin/projects/default";
const STATES = ["Draft", "In review", "Approved", "Scheduled", "Applied", "Cancelled", "Rejected"] as const;
type State = (typeof STATES)[number];
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

await srv.call("PUT", `${P}/environments/production/change-requests/config`, {
  body: { changeRequestsEnabled: true, requiredApprovals: 1 },
  headers: admin.headers,
});

let features = 0;
async function newFeature(): Promise<string> {
  const name = `tr-feature-${++features}`;
  const res = await srv.call("POST", `${P}/features`, { body: { name }, headers: admin.headers });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return name;
}
const move = (who: Who, id: number, body: object) => srv.call("PUT", `${P}/change-requests/${id}/state`, { body, headers: who.headers });
const stateOf = async (id: number) => (await srv.call("GET", `${P}/change-requests/${id}`, { headers: author.headers })).json.state;
const variantNames = async (feature: string) =>
  (await srv.call("GET", `${P}/features/${feature}/environments/production/variants`, { headers: admin.headers })).json.variants.map(
    (v: { name: string }) => v.name,
  );

/** The allowed transitions (docs/change-requests.md#change-request-states), each with who makes it, in the refusal message's order. */
const ALLOWED_MOVES: { from: State; to: State; by: () => Who; body?: () => object }[] = [
  { from: "Draft", to: "In review", by: () => author },
  { from: "Draft", to: "Cancelled", by: () => author },
  { from: "In review", to: "Approved", by: () => approver },
  { from: "In review", to: "Rejected", by: () => approver },
  { from: "In review", to: "Cancelled", by: () => admin },
  { from: "Approved", to: "Applied", by: () => approver },
  { from: "Approved", to: "Scheduled", by: () => approver, body: () => ({ scheduledAt: inAnHour() }) },
  { from: "Approved", to: "Cancelled", by: () => author },
  { from: "Scheduled", to: "Applied", by: () => approver },
  { from: "Scheduled", to: "Rejected", by: () => approver },
  { from: "Scheduled", to: "Cancelled", by: () => author },
];
const allowedFrom = (from: State): State[] => ALLOWED_MOVES.filter((m) => m.from === from).map((m) => m.to);

/** The way each state is reached from the one before it, by whom. */
const STEP: Partial<Record<State, { from: State; by: Who; body?: () => object }>> = {
  "In review": { from: "Draft", by: author },
  Approved: { from: "In review", by: approver },
  Scheduled: { from: "Approved", by: approver, body: () => ({ scheduledAt: inAnHour() }) },
  Applied: { from: "Approved", by: approver },
  Cancelled: { from: "Draft", by: author },
  Rejected: { from: "In review", by: approver },
};

/** A new change request of the author's, on a new feature, brought to `state`. */
async function requestIn(state: State): Promise<{ id: number; feature: string }> {
  const feature = await newFeature();
  const created = await srv.call("POST", `${P}/environments/production/change-requests`, {
    body: {
      feature,
      action: "patchVariant",
      payload: { variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }] },
    },
    headers: author.headers,
  });
  assert.equal([created.status, created.json.state], [200, "Draft"], JSON.stringify(created.json));
  const id: number = created.json.id;
  const path: State[] = [];
  for (let s: State = state; s !== "Draft"; s = (STEP[s] as { from: State }).from) path.unshift(s);
  for (const s of path) {
    const step = STEP[s] as { by: Who; body?: () => object };
    const res = await move(step.by, id, { state: s, ...step.body?.() });
    assert.equal([res.status, res.json.state], [200, s], `${s}: ${JSON.stringify(res.json)}`);
  }
  return { id, feature };
}

/** Ends a request still open, so the author's next proposal starts a new one. */
async function close(id: number): Promise<void> {
  if (allowedFrom((await stateOf(id)) as State).includes("Cancelled"))
    assert.is((await move(author, id, { state: "Cancelled" })).status, 200);
}

test("every refused transition is a 400 naming the current state and the allowed ones, and changes nothing", async () => {
  let refused = 0;
  for (const from of STATES) {
    const { id } = await requestIn(from);
    const eventsBefore = await srv.db.kysely
      .selectFrom("events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const options = allowedFrom(from).length
      ? allowedFrom(from)
          .map((s) => `"${s}"`)
          .join(", ")
      : "nothing (it is final)";
    for (const to of STATES.filter((s) => !allowedFrom(from).includes(s))) {
      // An Admin may do everything else, so only the state rule can refuse this.
      const res = await move(admin, id, { state: to, ...(to === "Scheduled" ? { scheduledAt: inAnHour() } : {}) });
      assert.equal([res.status, res.json.name], [400, "ValidationError"], `${from} -> ${to}`);
      assert.is(res.json.message, `Cannot move change request ${id} from "${from}" to "${to}"; from "${from}" it can go to ${options}.`);
      refused++;
    }
    assert.is(await stateOf(id), from);
    const eventsAfter = await srv.db.kysely
      .selectFrom("events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    assert.is(Number(eventsAfter.n), Number(eventsBefore.n), `${from}: no event for a refused move`);
    await close(id);
  }
  // 7 states x 7 targets, less the 11 allowed moves.
  assert.is(refused, 38);
});

test("a state that does not exist is a 400", async () => {
  const { id } = await requestIn("Draft");
  const res = await move(author, id, { state: "Merged" });
  assert.equal([res.status, res.json.name], [400, "ValidationError"]);
  assert.is(await stateOf(id), "Draft");
  await close(id);
});

for (const move_ of ALLOWED_MOVES) {
  test(`allowed: ${move_.from} -> ${move_.to}, recorded as an event`, async () => {
    const { id, feature } = await requestIn(move_.from);
    const res = await move(move_.by(), id, { state: move_.to, ...move_.body?.() });
    assert.equal([res.status, res.json.state], [200, move_.to], JSON.stringify(res.json));
    assert.is(await stateOf(id), move_.to);
    const type = `change-request-${move_.to.toLowerCase().replace(" ", "-")}`;
    const events = await srv.db.kysely
      .selectFrom("events")
      .select(["type", "data", "pre_data"])
      .where("type", "=", type)
      .where(sql<string>`data->>'id'`, "=", String(id))
      .execute();
    assert.is(events.length, 1, type);
    assert.equal((events[0]!.pre_data as { state: string }).state, move_.from);
    // Only an apply touches the feature; the schedule shows only while Scheduled.
    assert.equal(await variantNames(feature), move_.to === "Applied" ? ["blue"] : []);
    assert.is("schedule" in res.json, move_.to === "Scheduled");
    await close(id);
  });
}

test("Scheduled -> Rejected and -> Cancelled keep the feature as it was, and the scheduler then leaves them alone", async () => {
  const rejected = await requestIn("Scheduled");
  const cancelled = await requestIn("Scheduled");
  assert.is((await move(approver, rejected.id, { state: "Rejected", comment: "not this week" })).status, 200);
  assert.is((await move(author, cancelled.id, { state: "Cancelled" })).status, 200);
  await srv.db.kysely
    .updateTable("change_requests")
    .set({ scheduled_at: new Date(Date.now() - 1000) })
    .where("id", "in", [rejected.id, cancelled.id])
    .execute();
  await srv.app.scheduler.tick();
  assert.equal([await stateOf(rejected.id), await stateOf(cancelled.id)], ["Rejected", "Cancelled"]);
  assert.equal(await variantNames(rejected.feature), []);
  assert.equal(await variantNames(cancelled.feature), []);
});

test("who may not: the approver cannot cancel, the author cannot reject their own", async () => {
  const { id } = await requestIn("In review");
  assert.equal((await move(approver, id, { state: "Cancelled" })).json.message, "Only the author or an Admin can cancel a change request.");
  assert.equal(
    (await move(author, id, { state: "Rejected" })).json.message,
    "You cannot reject your own change request; cancel it instead.",
  );
  assert.is(await stateOf(id), "In review");
  await close(id);
});

test.after(async () => {
  await srv.close();
});

test.run();
