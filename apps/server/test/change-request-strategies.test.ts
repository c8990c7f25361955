import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const admin = await userWithRole(srv, "admin");
const author = await userWithRole(srv, "editor");
const approver = await userWithRole(srv, "editor");
const P = "/api/admin/projects/default";
const call = (who: { headers: Record<string, string> }, method: string, path: string, body?: unknown) =>
  srv.call(method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });

for (const name of ["cr.parent", "cr.child"]) assert.is((await call(admin, "POST", `${P}/features`, { name })).status, 201);
assert.is(
  (await call(admin, "PUT", `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 }))
    .status,
  200,
);

const propose = (feature: string, action: string, payload: unknown) =>
  call(author, "POST", `${P}/environments/production/change-requests`, { feature, action, payload });
async function approveAndApply(id: number): Promise<void> {
  assert.is((await call(author, "PUT", `${P}/change-requests/${id}/state`, { state: "In review" })).status, 200);
  assert.is((await call(approver, "PUT", `${P}/change-requests/${id}/state`, { state: "Approved" })).status, 200);
  const applied = await call(approver, "PUT", `${P}/change-requests/${id}/state`, { state: "Applied" });
  assert.equal([applied.status, applied.json.state], [200, "Applied"], JSON.stringify(applied.json));
}
const strategies = async () => (await call(admin, "GET", `${P}/features/cr.child/environments/production/strategies`)).json;

test("addStrategy, updateEnabled and addDependency are applied in the request's transaction", async () => {
  const first = await propose("cr.child", "addStrategy", { name: "userWithId", parameters: { userIds: "1" } });
  assert.is(first.status, 200, JSON.stringify(first.json));
  assert.is((await propose("cr.child", "updateEnabled", { enabled: true })).json.id, first.json.id);
  assert.is((await propose("cr.child", "addDependency", { feature: "cr.parent" })).json.id, first.json.id);
  assert.equal(await strategies(), [], "nothing is written before the request is applied");
  await approveAndApply(first.json.id);
  const feature = (await call(admin, "GET", `${P}/features/cr.child`)).json;
  const production = feature.environments.find((e: { name: string }) => e.name === "production");
  assert.equal(
    [
      production.enabled,
      production.strategies.map((s: { name: string }) => s.name),
      feature.dependencies.map((d: { feature: string }) => d.feature),
    ],
    [true, ["userWithId"], ["cr.parent"]],
  );
});

test("updateStrategy, deleteStrategy and deleteDependency", async () => {
  const [strategy] = await strategies();
  const update = await propose("cr.child", "updateStrategy", { id: strategy.id, name: "userWithId", parameters: { userIds: "2" } });
  assert.is(update.status, 200, JSON.stringify(update.json));
  await approveAndApply(update.json.id);
  assert.equal((await strategies())[0].parameters, { userIds: "2" });
  const remove = await propose("cr.child", "deleteStrategy", { id: strategy.id });
  await propose("cr.child", "deleteDependency", { feature: "cr.parent" });
  await approveAndApply(remove.json.id);
  assert.equal(await strategies(), []);
  assert.equal((await call(admin, "GET", `${P}/features/cr.child`)).json.dependencies, []);
});

test("a change a direct write would refuse is refused when proposed, and changes nothing", async () => {
  for (const [action, payload] of [
    ["addStrategy", { name: "noSuchStrategy" }],
    ["addStrategy", { name: "default", constraints: [{ contextName: "a", operator: "NUM_GT", value: "x" }] }],
    ["updateStrategy", { name: "default" }],
    ["deleteStrategy", {}],
    ["addDependency", { enabled: true }],
  ] as const) {
    const before = await dbSnapshot(srv.db.kysely);
    assertError(await propose("cr.child", action, payload), 400, "ValidationError");
    assert.equal(await dbSnapshot(srv.db.kysely), before, `${action} ${JSON.stringify(payload)}`);
  }
});

test("where change requests are on, direct strategy, switch and dependency writes are the 403 of variants", async () => {
  const before = await dbSnapshot(srv.db.kysely);
  assertError(
    await call(author, "POST", `${P}/features/cr.child/environments/production/strategies`, { name: "default" }),
    403,
    "NoAccessError",
  );
  assertError(await call(author, "POST", `${P}/features/cr.child/environments/production/off`), 403, "NoAccessError");
  assertError(await call(author, "POST", `${P}/features/cr.child/dependencies`, { feature: "cr.parent" }), 403, "NoAccessError");
  assert.equal(await dbSnapshot(srv.db.kysely), before);
});

test.after(() => srv.close());
test.run();
