import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The reviewer's inbox (docs/change-requests.md#the-reviewers-inbox): GET /api/admin/change-requests/inbox.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const client = await clientToken(srv);
const alice = await userWithRole(srv, "editor", "alice");
const bob = await userWithRole(srv, "editor", "bob");
const carol = await userWithRole(srv, "editor", "carol");
const viewer = await userWithRole(srv, "viewer");
const root = await userWithRole(srv, "admin");

const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300 && !path.endsWith("/inbox")) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res;
};
const inbox = async (headers: Record<string, string>) => {
  const res = await call("GET", "/api/admin/change-requests/inbox", headers);
  assert.is(res.status, 200, JSON.stringify(res.json));
  return res.json as { review: number; apply: number; changeRequests: { id: number; project: string; state: string; actions: string[] }[] };
};
const summary = async (headers: Record<string, string>) => {
  const box = await inbox(headers);
  return { review: box.review, apply: box.apply, ids: box.changeRequests.map((r) => [r.id, r.state, r.actions]) };
};

// Two projects with change requests on in production, a flag in each.
await call("POST", "/api/admin/projects", admin, { id: "shop", name: "Shop" });
await call("POST", "/api/admin/projects/shop/environments", admin, { environment: "production" });
for (const project of ["default", "shop"]) {
  await call("PUT", `/api/admin/projects/${project}/environments/production/change-requests/config`, admin, {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  await call("POST", `/api/admin/projects/${project}/features`, admin, { name: `${project}-flag` });
}

/** A change to `project`'s flag proposed by `who`, sent for review unless `draft`. */
async function propose(who: { headers: Record<string, string> }, project: string, draft = false): Promise<number> {
  const cr = await call("POST", `/api/admin/projects/${project}/environments/production/change-requests`, who.headers, {
    feature: `${project}-flag`,
    action: "updateEnabled",
    payload: { enabled: true },
  });
  if (!draft) await call("PUT", `/api/admin/projects/${project}/change-requests/${cr.json.id}/state`, who.headers, { state: "In review" });
  return cr.json.id;
}

const fromAlice = await propose(alice, "default");
const fromCarol = await propose(carol, "shop");
const bobsDraft = await propose(bob, "default", true);

test("a reviewer sees others' requests in review, in every project; not their own, not drafts", async () => {
  assert.equal(await summary(bob.headers), {
    review: 2,
    apply: 0,
    ids: [
      [fromAlice, "In review", ["Approved", "Rejected"]],
      [fromCarol, "In review", ["Approved", "Rejected"]],
    ],
  });
  assert.equal(await summary(alice.headers), { review: 1, apply: 0, ids: [[fromCarol, "In review", ["Approved", "Rejected"]]] });
  // An Admin may approve their own; the draft is nobody's to review.
  const rootBox = await summary(root.headers);
  assert.equal(
    rootBox.ids.map(([id]) => id),
    [fromAlice, fromCarol],
  );
  assert.not.ok(rootBox.ids.some(([id]) => id === bobsDraft));
});

test("approved: off the approver's review list, on the list of whoever may apply it, its author included", async () => {
  await call("PUT", `/api/admin/projects/default/change-requests/${fromAlice}/state`, bob.headers, { state: "Approved" });
  assert.equal(await summary(bob.headers), {
    review: 1,
    apply: 1,
    ids: [
      [fromAlice, "Approved", ["Applied", "Scheduled"]],
      [fromCarol, "In review", ["Approved", "Rejected"]],
    ],
  });
  assert.equal(await summary(alice.headers), {
    review: 1,
    apply: 1,
    ids: [
      [fromAlice, "Approved", ["Applied", "Scheduled", "Cancelled"]],
      [fromCarol, "In review", ["Approved", "Rejected"]],
    ],
  });
  // An admin token reviews nothing (approvals are a person's) but may apply.
  assert.equal(await summary(admin), { review: 0, apply: 1, ids: [[fromAlice, "Approved", ["Applied", "Scheduled", "Cancelled"]]] });
  // Each listed request is the one GET answers, with the same actions.
  for (const r of (await inbox(bob.headers)).changeRequests) {
    const one = await call("GET", `/api/admin/projects/${r.project}/change-requests/${r.id}`, bob.headers);
    assert.equal(one.json, r);
  }
});

test("nothing for those who can act on nothing; applied and switched-off requests leave", async () => {
  assert.equal(await summary(viewer.headers), { review: 0, apply: 0, ids: [] });
  await call("PUT", `/api/admin/projects/default/change-requests/${fromAlice}/state`, alice.headers, { state: "Applied" });
  await call("PUT", "/api/admin/projects/shop/environments/production/change-requests/config", admin, {
    changeRequestsEnabled: false,
    requiredApprovals: 1,
  });
  assert.equal(await summary(bob.headers), { review: 0, apply: 0, ids: [] });
  await call("PUT", "/api/admin/projects/shop/environments/production/change-requests/config", admin, {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  assert.is((await inbox(bob.headers)).review, 1);
});

test("who may ask; asking changes nothing", async () => {
  const before = await dbSnapshot(db);
  assertError(await srv.call("GET", "/api/admin/change-requests/inbox"), 401, "AuthenticationRequired");
  assertError(await srv.call("GET", "/api/admin/change-requests/inbox", { headers: client }), 403, "NoAccessError");
  await inbox(bob.headers);
  assert.equal(await dbSnapshot(db), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
