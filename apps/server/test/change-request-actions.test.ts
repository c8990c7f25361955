import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// A change request's `actions` (what the console offers) against what PUT .../state then does:
// for every state and every kind of caller, the moves accepted are exactly the ones listed.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const admin = await userWithRole(srv, "admin", "act-admin");
const adminAuthor = await userWithRole(srv, "admin", "act-admin-author");
const author = await userWithRole(srv, "editor", "act-author");
const editor = await userWithRole(srv, "editor", "act-editor");
const viewer = await userWithRole(srv, "viewer", "act-viewer");
// Brings requests to their state, so the editor above has never reviewed the one it looks at.
const stepper = await userWithRole(srv, "editor", "act-stepper");
const token = { headers: await adminToken(srv) };
type Who = { headers: Record<string, string> };

const P = "/api/admin/projects/default";
const STATES = ["Draft", "In review", "Approved", "Scheduled", "Applied", "Cancelled", "Rejected"] as const;
type State = (typeof STATES)[number];
const OPEN: State[] = ["Draft", "In review", "Approved"];
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const bodyFor = (state: State) => ({ state, ...(state === "Scheduled" ? { scheduledAt: inAnHour() } : {}) });

for (const [environment, requiredApprovals] of [
  ["production", 1],
  ["development", 2],
] as const) {
  const res = await srv.call("PUT", `${P}/environments/${environment}/change-requests/config`, {
    body: { changeRequestsEnabled: true, requiredApprovals },
    headers: admin.headers,
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
}

const move = (who: Who, id: number, body: object) => srv.call("PUT", `${P}/change-requests/${id}/state`, { body, headers: who.headers });
const view = async (who: Who, id: number) => {
  const res = await srv.call("GET", `${P}/change-requests/${id}`, { headers: who.headers });
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json as { state: State; actions: State[] };
};

/** The way each state is reached from the one before it. */
const STEP: Partial<Record<State, { from: State; by: "author" | "stepper" }>> = {
  "In review": { from: "Draft", by: "author" },
  Approved: { from: "In review", by: "stepper" },
  Scheduled: { from: "Approved", by: "stepper" },
  Applied: { from: "Approved", by: "stepper" },
  Cancelled: { from: "Draft", by: "author" },
  Rejected: { from: "In review", by: "stepper" },
};

let features = 0;
/** A new request of `by`'s on a new feature in production, brought to `state`. */
async function requestIn(state: State, by: Who): Promise<number> {
  const feature = `act-feature-${++features}`;
  assert.is((await srv.call("POST", `${P}/features`, { body: { name: feature }, headers: admin.headers })).status, 201);
  const created = await srv.call("POST", `${P}/environments/production/change-requests`, {
    body: { feature, action: "updateEnabled", payload: { enabled: true } },
    headers: by.headers,
  });
  assert.equal([created.status, created.json.state], [200, "Draft"], JSON.stringify(created.json));
  const path: State[] = [];
  for (let s: State = state; s !== "Draft"; s = (STEP[s] as { from: State }).from) path.unshift(s);
  for (const s of path) {
    const step = STEP[s] as { by: "author" | "stepper" };
    const res = await move(step.by === "author" ? by : stepper, created.json.id, bodyFor(s));
    assert.equal([res.status, res.json.state], [200, s], `${s}: ${JSON.stringify(res.json)}`);
  }
  return created.json.id;
}

/** Ends a request still open, so its author's next proposal starts a new one. */
async function close(id: number, by: Who): Promise<void> {
  if (OPEN.includes((await view(by, id)).state)) assert.is((await move(by, id, { state: "Cancelled" })).status, 200);
}

/** Each kind of caller, the author of the requests it looks at, and what it may do from each state. */
const CALLERS: { name: string; who: Who; author: Who; expected: Partial<Record<State, State[]>> }[] = [
  {
    name: "its author, an Editor",
    who: author,
    author,
    expected: {
      Draft: ["In review", "Cancelled"],
      "In review": ["Cancelled"],
      Approved: ["Applied", "Scheduled", "Cancelled"],
      Scheduled: ["Applied", "Cancelled"],
    },
  },
  {
    name: "another Editor",
    who: editor,
    author,
    expected: { "In review": ["Approved", "Rejected"], Approved: ["Applied", "Scheduled"], Scheduled: ["Applied", "Rejected"] },
  },
  {
    name: "an Admin",
    who: admin,
    author,
    expected: {
      Draft: ["Cancelled"],
      "In review": ["Approved", "Rejected", "Cancelled"],
      Approved: ["Applied", "Scheduled", "Cancelled"],
      Scheduled: ["Applied", "Rejected", "Cancelled"],
    },
  },
  {
    name: "its author, an Admin",
    who: adminAuthor,
    author: adminAuthor,
    expected: {
      Draft: ["In review", "Cancelled"],
      "In review": ["Approved", "Rejected", "Cancelled"],
      Approved: ["Applied", "Scheduled", "Cancelled"],
      Scheduled: ["Applied", "Rejected", "Cancelled"],
    },
  },
  { name: "a Viewer", who: viewer, author, expected: {} },
  {
    name: "an admin API token",
    who: token,
    author,
    expected: {
      Draft: ["Cancelled"],
      "In review": ["Cancelled"],
      Approved: ["Applied", "Scheduled", "Cancelled"],
      Scheduled: ["Applied", "Cancelled"],
    },
  },
];

for (const caller of CALLERS) {
  for (const state of STATES) {
    test(`${state}, seen by ${caller.name}: the moves accepted are exactly the actions listed`, async () => {
      const id = await requestIn(state, caller.author);
      const { actions } = await view(caller.who, id);
      assert.equal(actions, caller.expected[state] ?? []);
      // A refused move changes nothing, so one request serves every refusal.
      for (const to of STATES.filter((s) => !actions.includes(s))) {
        const res = await move(caller.who, id, bodyFor(to));
        assert.ok(
          (res.status === 400 && res.json.name === "ValidationError") || (res.status === 403 && res.json.name === "NoAccessError"),
          `${state} -> ${to}: ${res.status} ${JSON.stringify(res.json)}`,
        );
        assert.is((await view(caller.author, id)).state, state, `${state} -> ${to} was refused`);
      }
      await close(id, caller.author);
      for (const to of actions) {
        const fresh = await requestIn(state, caller.author);
        const res = await move(caller.who, fresh, bodyFor(to));
        assert.equal([res.status, res.json.state], [200, to], `${state} -> ${to}: ${JSON.stringify(res.json)}`);
        // The answer to a move says what the caller may do next, as a read would.
        assert.equal(res.json.actions, (await view(caller.who, fresh)).actions);
        await close(fresh, caller.author);
      }
    });
  }
}

test("the pending list carries the same actions as the request read alone", async () => {
  const draft = await requestIn("Draft", author);
  const pending = await srv.call("GET", `${P}/change-requests/pending`, { headers: author.headers });
  assert.is(pending.status, 200);
  const listed = (pending.json as { id: number; actions: State[] }[]).find((r) => r.id === draft);
  assert.equal(listed?.actions, ["In review", "Cancelled"]);
  assert.equal(listed?.actions, (await view(author, draft)).actions);
  await close(draft, author);
});

test("an approval short of the required two is not offered again to who gave it, and a repeat is accepted without counting twice", async () => {
  const feature = `act-feature-${++features}`;
  assert.is((await srv.call("POST", `${P}/features`, { body: { name: feature }, headers: admin.headers })).status, 201);
  const created = await srv.call("POST", `${P}/environments/development/change-requests`, {
    body: { feature, action: "updateEnabled", payload: { enabled: true } },
    headers: author.headers,
  });
  const id: number = created.json.id;
  assert.is((await move(author, id, { state: "In review" })).status, 200);
  const first = await move(editor, id, { state: "Approved" });
  assert.equal([first.status, first.json.state, first.json.actions], [200, "In review", ["Rejected"]]);
  // Another reviewer is still offered the approval the request needs.
  assert.equal((await view(admin, id)).actions, ["Approved", "Rejected", "Cancelled"]);
  const again = await move(editor, id, { state: "Approved" });
  assert.equal([again.status, again.json.state, again.json.approvals.length], [200, "In review", 1]);
  await close(id, author);
});

test.after(async () => {
  await srv.close();
});

test.run();
