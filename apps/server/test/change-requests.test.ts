import { connectDatabase } from "@vexil/db";
import { runDueChangeRequests } from "@vexil/services";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The scheduler is driven by hand here, so that nothing happens behind the test's back.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const admin = await userWithRole(srv, "admin", "cr-admin");
const author = await userWithRole(srv, "editor", "cr-author");
const approver = await userWithRole(srv, "editor", "cr-approver");
const viewer = await userWithRole(srv, "viewer", "cr-viewer");
const token = await adminToken(srv);

const P = "/api/admin/projects/default";
const variants = (name = "blue") => [{ name, weight: 1000, weightType: "variable", stickiness: "default" }];
let featureCount = 0;

async function newFeature(): Promise<string> {
  const name = `cr-feature-${++featureCount}`;
  const res = await srv.call("POST", `${P}/features`, { body: { name }, headers: admin.headers });
  assert.is(res.status, 201, JSON.stringify(res.json));
  return name;
}
async function configure(environment: string, enabled: boolean, requiredApprovals = 1) {
  const res = await srv.call("PUT", `${P}/environments/${environment}/change-requests/config`, {
    body: { changeRequestsEnabled: enabled, requiredApprovals },
    headers: admin.headers,
  });
  assert.is(res.status, 200, JSON.stringify(res.json));
}
const propose = (
  who: { headers: Record<string, string> },
  feature: string,
  body: object = { action: "patchVariant", payload: { variants: variants() } },
  env = "production",
) => srv.call("POST", `${P}/environments/${env}/change-requests`, { body: { feature, ...body }, headers: who.headers });
const move = (who: { headers: Record<string, string> }, id: number, body: object) =>
  srv.call("PUT", `${P}/change-requests/${id}/state`, { body, headers: who.headers });
const variantsOf = async (feature: string, env = "production") =>
  (await srv.call("GET", `${P}/features/${feature}/environments/${env}/variants`, { headers: admin.headers })).json.variants;
const pending = async (who: { headers: Record<string, string> }) =>
  (await srv.call("GET", `${P}/change-requests/pending`, { headers: who.headers })).json;

await configure("production", true, 2);

test("config: read per environment, Admin only to change", async () => {
  const res = await srv.call("GET", `${P}/change-requests/config`, { headers: viewer.headers });
  assert.is(res.status, 200);
  const production = res.json.find((c: { environment: string }) => c.environment === "production");
  assert.equal(production, { environment: "production", type: "production", changeRequestsEnabled: true, requiredApprovals: 2 });
  const refused = await srv.call("PUT", `${P}/environments/production/change-requests/config`, {
    body: { changeRequestsEnabled: false, requiredApprovals: 1 },
    headers: author.headers,
  });
  assert.equal([refused.status, refused.json.name], [403, "NoAccessError"]);
  for (const requiredApprovals of [0, 11, 1.5]) {
    const bad = await srv.call("PUT", `${P}/environments/production/change-requests/config`, {
      body: { changeRequestsEnabled: true, requiredApprovals },
      headers: admin.headers,
    });
    assert.is(bad.status, 400, String(requiredApprovals));
  }
  assert.is((await srv.call("GET", "/api/admin/projects/nope/change-requests/config", { headers: viewer.headers })).status, 404);
});

test("direct variant writes are refused where change requests are on, unless SKIP_CHANGE_REQUEST", async () => {
  const feature = await newFeature();
  const path = `${P}/features/${feature}/environments/production/variants`;
  const editor = await srv.call("PUT", path, { body: variants(), headers: author.headers });
  assert.equal([editor.status, editor.json.name], [403, "NoAccessError"]);
  assert.match(editor.json.message, /change request/);
  assert.equal(await variantsOf(feature), []);
  const byAdmin = await srv.call("PUT", path, { body: variants(), headers: admin.headers });
  assert.is(byAdmin.status, 200);
  const dev = await srv.call("PUT", `${P}/features/${feature}/environments/development/variants`, {
    body: variants(),
    headers: author.headers,
  });
  assert.is(dev.status, 200, "development has no change requests");
});

test("the whole lifecycle: Draft -> In review -> (2 approvals) Approved -> Applied", async () => {
  const feature = await newFeature();
  const created = await propose(author, feature);
  assert.is(created.status, 200, JSON.stringify(created.json));
  const id = created.json.id;
  assert.equal(
    [created.json.state, created.json.minApprovals, created.json.environment, created.json.project],
    ["Draft", 2, "production", "default"],
  );
  assert.equal(created.json.features[0].name, feature);
  assert.is(created.json.features[0].changes[0].action, "patchVariant");
  assert.is(created.json.createdBy.username, "cr-author");
  assert.not.ok("schedule" in created.json);

  const again = await propose(author, feature, { action: "updateEnabled", payload: { enabled: true } });
  assert.is(again.json.id, id, "the open request is reused");
  assert.is(again.json.features[0].changes.length, 2);

  assert.equal((await move(approver, id, { state: "In review" })).status, 403, "only the author submits");
  assert.is((await move(author, id, { state: "In review" })).json.state, "In review");

  const own = await move(author, id, { state: "Approved" });
  assert.equal([own.status, own.json.name, own.json.message], [403, "NoAccessError", "You cannot approve your own change request."]);
  const byViewer = await move(viewer, id, { state: "Approved" });
  assert.equal(
    [byViewer.status, byViewer.json.message],
    [403, 'You need the "APPROVE_CHANGE_REQUEST" permission to perform this action in the "production" environment.'],
  );

  const first = await move(approver, id, { state: "Approved" });
  assert.equal([first.status, first.json.state, first.json.approvals.length], [200, "In review", 1]);
  const twice = await move(approver, id, { state: "Approved" });
  assert.equal([twice.json.state, twice.json.approvals.length], ["In review", 1], "one user's approval counts once");
  const second = await move(admin, id, { state: "Approved" });
  assert.equal([second.json.state, second.json.approvals.length], ["Approved", 2]);

  assert.equal(await variantsOf(feature), [], "nothing changes before apply");
  const applied = await move(approver, id, { state: "Applied" });
  assert.equal([applied.status, applied.json.state], [200, "Applied"]);
  const stored = await variantsOf(feature);
  assert.equal(
    stored.map((v: { name: string; weight: number }) => [v.name, v.weight]),
    [["blue", 1000]],
  );
  const fe = await srv.db.kysely
    .selectFrom("feature_environments")
    .select("enabled")
    .where("feature_name", "=", feature)
    .where("environment_name", "=", "production")
    .executeTakeFirstOrThrow();
  assert.is(fe.enabled, true);

  const refused = await move(author, id, { state: "Draft" });
  assert.is(refused.status, 400);
  assert.is(
    refused.json.message,
    `Cannot move change request ${id} from "Applied" to "Draft"; from "Applied" it can go to nothing (it is final).`,
  );
  const types = (await srv.db.kysely.selectFrom("events").select("type").where("type", "like", "change-request-%").execute()).map(
    (e) => e.type,
  );
  for (const type of [
    "change-request-created",
    "change-request-change-added",
    "change-request-in-review",
    "change-request-approval-added",
    "change-request-approved",
    "change-request-applied",
  ]) {
    assert.ok(types.includes(type), type);
  }
});

test("refused transitions name the current and allowed states", async () => {
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  const res = await move(approver, id, { state: "Applied" });
  assert.equal([res.status, res.json.name], [400, "ValidationError"]);
  assert.is(
    res.json.message,
    `Cannot move change request ${id} from "Draft" to "Applied"; from "Draft" it can go to "In review", "Cancelled".`,
  );
  const cancelledByOther = await move(approver, id, { state: "Cancelled" });
  assert.is(cancelledByOther.status, 403);
  assert.is((await move(author, id, { state: "Cancelled" })).json.state, "Cancelled");
});

test("a change added after approval sends the request back to review and clears approvals", async () => {
  await configure("production", true, 1);
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  await move(author, id, { state: "In review" });
  assert.is((await move(approver, id, { state: "Approved" })).json.state, "Approved");
  const grown = await propose(author, feature, { action: "updateEnabled", payload: { enabled: true } });
  assert.equal([grown.json.id, grown.json.state, grown.json.approvals], [id, "In review", []]);
  await move(author, id, { state: "Cancelled" });
  await configure("production", true, 2);
});

test("an approval names the version it approves: one read before a change was added is refused with 409", async () => {
  await configure("production", true, 1);
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  const read = (await move(author, id, { state: "In review" })).json;
  const grown = await propose(author, feature, { action: "updateEnabled", payload: { enabled: true } });
  assert.ok(grown.json.version > read.version, "adding a change makes a new version");
  const stale = await move(approver, id, { state: "Approved", version: read.version });
  assert.equal(
    [stale.status, stale.json.name, stale.json.message],
    [409, "ConflictError", "The change request changed since you read it; read it again and review its changes."],
  );
  const unchanged = (await srv.call("GET", `${P}/change-requests/${id}`, { headers: approver.headers })).json;
  assert.equal([unchanged.state, unchanged.approvals], ["In review", []], "the refused approval is not stored");
  const fresh = await move(approver, id, { state: "Approved", version: grown.json.version });
  assert.equal([fresh.status, fresh.json.state, fresh.json.version], [200, "Approved", grown.json.version]);
  await move(author, id, { state: "Cancelled" });
  await configure("production", true, 2);
});

test("rejection by an approver, not by the author", async () => {
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  await move(author, id, { state: "In review" });
  assert.is((await move(author, id, { state: "Rejected" })).status, 403);
  const rejected = await move(approver, id, { state: "Rejected", comment: "not now" });
  assert.equal([rejected.json.state, rejected.json.rejections[0].text], ["Rejected", "not now"]);
});

test("a stale change fails the apply with 400 and changes nothing", async () => {
  await configure("production", true, 1);
  const feature = await newFeature();
  const id = (await propose(author, feature, { action: "patchVariant", payload: { variants: variants("green") } })).json.id;
  await propose(author, feature, { action: "updateEnabled", payload: { enabled: true } });
  await move(author, id, { state: "In review" });
  await move(approver, id, { state: "Approved" });
  // The stored change has gone bad since it was proposed (e.g. written by an older version).
  await sql`update change_request_changes set payload = '{"variants": [{"name": "x", "weight": 1000, "weightType": "fix"}]}'::jsonb
            where change_request_id = ${id} and action = 'patchVariant'`.execute(srv.db.kysely);
  const eventsBefore = await srv.db.kysely
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const res = await move(approver, id, { state: "Applied" });
  assert.equal([res.status, res.json.name], [400, "ValidationError"]);
  assert.match(res.json.message, /can no longer be applied/);
  assert.equal(await variantsOf(feature), []);
  const fe = await srv.db.kysely
    .selectFrom("feature_environments")
    .select("enabled")
    .where("feature_name", "=", feature)
    .executeTakeFirst();
  assert.not.ok(fe?.enabled, "the earlier change in the request was rolled back too");
  const after = await srv.call("GET", `${P}/change-requests/${id}`, { headers: author.headers });
  assert.is(after.json.state, "Approved");
  const eventsAfter = await srv.db.kysely
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  assert.is(Number(eventsAfter.n), Number(eventsBefore.n));
  await move(author, id, { state: "Cancelled" });
  await configure("production", true, 2);
});

test("scheduling: the due request is applied exactly once by two racing scheduler loops", async () => {
  await configure("production", true, 1);
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  await move(author, id, { state: "In review" });
  await move(approver, id, { state: "Approved" });
  const past = await move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() - 1000).toISOString() });
  assert.equal([past.status, past.json.name], [400, "ValidationError"]);
  const scheduled = await move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
  assert.equal([scheduled.json.state, scheduled.json.schedule.status], ["Scheduled", "pending"]);
  assert.ok((await pending(author)).some((cr: { id: number; schedule?: unknown }) => cr.id === id && cr.schedule));

  assert.equal((await runDueChangeRequests(srv.db.kysely)).applied, [], "not due yet");
  await srv.db.kysely
    .updateTable("change_requests")
    .set({ scheduled_at: new Date(Date.now() - 1000) })
    .where("id", "=", id)
    .execute();
  const other = srv.db.databaseUrl ? connectDatabase({ databaseUrl: srv.db.databaseUrl, poolSize: 2 }) : undefined;
  try {
    const [a, b] = await Promise.all([runDueChangeRequests(srv.db.kysely), runDueChangeRequests(other?.kysely ?? srv.db.kysely)]);
    assert.equal([...a.applied, ...b.applied], [id]);
  } finally {
    await other?.close();
  }
  assert.is((await srv.call("GET", `${P}/change-requests/${id}`, { headers: author.headers })).json.state, "Applied");
  assert.is((await variantsOf(feature)).length, 1);
  const applies = await srv.db.kysely
    .selectFrom("events")
    .select("id")
    .where("type", "=", "change-request-applied")
    .where(sql`data->>'id'`, "=", String(id))
    .execute();
  assert.is(applies.length, 1);
  await configure("production", true, 2);
});

test("a scheduled request that cannot apply is marked failed with the reason", async () => {
  await configure("production", true, 1);
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  await move(author, id, { state: "In review" });
  await move(approver, id, { state: "Approved" });
  await move(approver, id, { state: "Scheduled", scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
  await sql`update change_request_changes set payload = '{"variants": "nope"}'::jsonb where change_request_id = ${id}`.execute(
    srv.db.kysely,
  );
  await srv.db.kysely
    .updateTable("change_requests")
    .set({ scheduled_at: new Date(Date.now() - 1000) })
    .where("id", "=", id)
    .execute();
  const outcome = await runDueChangeRequests(srv.db.kysely);
  assert.equal(outcome.failed, [id]);
  const cr = (await srv.call("GET", `${P}/change-requests/${id}`, { headers: author.headers })).json;
  assert.equal([cr.state, cr.schedule.status], ["Scheduled", "failed"]);
  assert.match(cr.schedule.reason, /can no longer be applied/);
  assert.equal(await variantsOf(feature), []);
  await move(author, id, { state: "Cancelled" });
  await configure("production", true, 2);
});

test("pending: the caller's own open requests, in enabled environments, by id", async () => {
  await configure("development", true, 1);
  // Closed requests of the author's must not show: one cancelled, one rejected.
  const cancelled = (await propose(author, await newFeature())).json.id;
  assert.is((await move(author, cancelled, { state: "Cancelled" })).status, 200);
  const rejected = (await propose(author, await newFeature())).json.id;
  assert.is((await move(author, rejected, { state: "In review" })).status, 200);
  assert.is((await move(approver, rejected, { state: "Rejected" })).status, 200);
  const f1 = await newFeature();
  const mineProd = (await propose(author, f1)).json.id;
  const mineDev = (await propose(author, f1, undefined, "development")).json.id;
  const theirs = (await propose(approver, f1)).json.id;
  const list = await pending(author);
  const ids = list.map((cr: { id: number }) => cr.id);
  assert.ok(ids.includes(mineProd) && ids.includes(mineDev));
  assert.not.ok(ids.includes(theirs), "another user's request");
  assert.not.ok(ids.includes(cancelled) || ids.includes(rejected), "closed requests");
  assert.equal(
    ids,
    [...ids].sort((a: number, b: number) => a - b),
    "ordered by id",
  );
  for (const cr of list) {
    assert.ok(["Draft", "In review", "Approved", "Scheduled"].includes(cr.state));
    assert.is(cr.createdBy.username, "cr-author");
    assert.ok(Array.isArray(cr.segments) && Array.isArray(cr.features));
  }

  await configure("development", false, 1);
  const afterOff = (await pending(author)).map((cr: { id: number }) => cr.id);
  assert.not.ok(afterOff.includes(mineDev), "environments turned off afterwards drop out");
  assert.ok(afterOff.includes(mineProd));

  assert.equal(await pending({ headers: token }), [], "an admin token is not a user");
  const missing = await srv.call("GET", "/api/admin/projects/no-such-project/change-requests/pending", { headers: author.headers });
  assert.equal([missing.status, missing.json.name], [404, "NotFoundError"]);
  assert.is((await srv.call("GET", `${P}/change-requests/pending`)).status, 401);
});

test("reading a change request from another project is 404", async () => {
  const created = await srv.call("POST", "/api/admin/projects", { body: { id: "other", name: "Other" }, headers: admin.headers });
  assert.is(created.status, 201, JSON.stringify(created.json));
  const feature = await newFeature();
  const id = (await propose(author, feature)).json.id;
  assert.is((await srv.call("GET", `/api/admin/projects/other/change-requests/${id}`, { headers: author.headers })).status, 404);
  assert.is((await srv.call("GET", `${P}/change-requests/${id}`, { headers: author.headers })).status, 200);
});

test("bad proposals are 400 and store nothing", async () => {
  const feature = await newFeature();
  const before = await srv.db.kysely
    .selectFrom("change_request_changes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const cases = [
    { action: "updateEnabled", payload: { enabled: "yes" } },
    { action: "patchVariant", payload: { variants: [{ name: "a", weight: 1000, weightType: "fix" }] } },
    { action: "deleteEverything", payload: {} },
  ];
  for (const body of cases) assert.is((await propose(approver, feature, body)).status, 400, JSON.stringify(body));
  assert.is((await propose(author, "no-such-feature")).status, 404);
  assert.is((await propose(viewer, feature)).status, 403);
  const after = await srv.db.kysely
    .selectFrom("change_request_changes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  assert.is(Number(after.n), Number(before.n));
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
