import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Roles per project (docs/project-roles.md): Owner, Member and Viewer of project "x", given to
// users and to a group, decide what their holders may do in x; elsewhere the root role decides.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const X = "/api/admin/projects/x";

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await srv.call(method, path, { headers: admin, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res;
};
await ok("POST", "/api/admin/projects", { id: "x", name: "X" });
for (const environment of ["development", "production"]) await ok("POST", `${X}/environments`, { environment });
await ok("PUT", `${X}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
await ok("POST", `${X}/features`, { name: "x-flag" });
await ok("POST", "/api/admin/projects/default/features", { name: "default-flag" });

// A root Editor who is only a Viewer of x; root Viewers who are a Member and an Owner of x; a root
// Viewer who is a Member of x through a group; a root Editor with no project role.
const editorViewer = await userWithRole(srv, "editor");
const member = await userWithRole(srv, "viewer");
const secondMember = await userWithRole(srv, "viewer");
const owner = await userWithRole(srv, "viewer");
const grouped = await userWithRole(srv, "viewer");
const editor = await userWithRole(srv, "editor");
const group = await db.insertInto("groups").values({ name: "team-x" }).returning("id").executeTakeFirstOrThrow();
await db.insertInto("group_users").values({ group_id: group.id, user_id: grouped.id }).execute();

await ok("POST", `${X}/role/6/access`, { users: [{ id: editorViewer.id }] });
await ok("POST", `${X}/role/5/access`, { users: [{ id: member.id }, { id: secondMember.id }] });
await ok("POST", `${X}/role/4/access`, { users: [{ id: owner.id }] });

const call = (who: { headers: Record<string, string> }, method: string, path: string, body?: unknown) =>
  srv.call(method, path, { headers: who.headers, ...(body === undefined ? {} : { body }) });
const trpc = (who: { headers: Record<string, string> }, procedure: string, input: unknown) =>
  srv.call("POST", `/trpc/${procedure}`, { headers: who.headers, body: input });

async function stored() {
  const users = await db.selectFrom("role_user").select(["project", "user_id", "role_id"]).orderBy(["user_id", "role_id"]).execute();
  const groups = await db.selectFrom("group_role").select(["project", "group_id", "role_id"]).orderBy(["group_id", "role_id"]).execute();
  const events = await db.selectFrom("events").select(["id"]).orderBy("id").execute();
  return { users, groups, events };
}

test("GET /api/admin/roles lists the root roles and the project roles with Unleash's ids", async () => {
  const res = await call(member, "GET", "/api/admin/roles");
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.json.version, 1);
  assert.equal(
    res.json.roles.map((r: { id: number; name: string; type: string }) => `${r.id} ${r.name} ${r.type}`),
    ["1 Admin root", "2 Editor root", "3 Viewer root", "4 Owner project", "5 Member project", "6 Viewer project"],
  );
  assertError(await srv.call("GET", "/api/admin/roles"), 401, "AuthenticationRequired");
});

test("a root Editor who is a Viewer of x gets a 403 naming the permission and the project, on REST and /trpc", async () => {
  const created = await call(editorViewer, "POST", `${X}/features`, { name: "not-by-viewer" });
  assertError(created, 403, "NoAccessError");
  assert.is(created.json.message, 'You need the "CREATE_FEATURE" permission to perform this action in the "x" project.');

  const on = await call(editorViewer, "POST", `${X}/features/x-flag/environments/development/on`);
  assertError(on, 403, "NoAccessError");
  assert.is(
    on.json.message,
    'You need the "UPDATE_FEATURE_ENVIRONMENT" permission to perform this action in the "development" environment of the "x" project.',
  );

  const overTrpc = await trpc(editorViewer, "features.create", { projectId: "x", name: "not-by-viewer" });
  assert.is(overTrpc.status, 403);
  assert.is(overTrpc.json.error.data.name, "NoAccessError");
  assert.is(overTrpc.json.error.data.message, 'You need the "CREATE_FEATURE" permission to perform this action in the "x" project.');

  const strategy = await trpc(editorViewer, "featureStrategies.add", {
    projectId: "x",
    featureName: "x-flag",
    environment: "development",
    name: "default",
  });
  assert.is(strategy.status, 403);
  assert.match(strategy.json.error.data.message, /"CREATE_FEATURE_STRATEGY" permission .* of the "x" project\./);

  assert.is(await db.selectFrom("features").select("name").where("name", "=", "not-by-viewer").executeTakeFirst(), undefined);
  // Reading x is anyone's; writing elsewhere is still the root Editor's.
  assert.is((await call(editorViewer, "GET", `${X}/features/x-flag`)).status, 200);
  assert.is((await call(editorViewer, "POST", "/api/admin/projects/default/features", { name: "by-editor-viewer" })).status, 201);
});

test("a route naming a flag but not its project is checked in the flag's project", async () => {
  await ok("POST", `${X}/features`, { name: "x-archived" });
  await ok("DELETE", `${X}/features/x-archived`);
  const res = await call(editorViewer, "DELETE", "/api/admin/archive/x-archived");
  assertError(res, 403, "NoAccessError");
  assert.is(res.json.message, 'You need the "DELETE_FEATURE" permission to perform this action in the "x" project.');
  const row = await db.selectFrom("features").select("archived_at").where("name", "=", "x-archived").executeTakeFirst();
  assert.ok(row?.archived_at);
});

test("a root Viewer who is a Member of x writes flags in x, and only there", async () => {
  assert.is((await call(member, "POST", `${X}/features`, { name: "by-member" })).status, 201);
  assert.is((await call(member, "POST", `${X}/features/by-member/environments/development/on`)).status, 200);
  const strategy = await call(member, "POST", `${X}/features/by-member/environments/development/strategies`, { name: "default" });
  assert.is(strategy.status, 200, JSON.stringify(strategy.json));
  assert.is((await trpc(member, "features.create", { projectId: "x", name: "by-member-trpc" })).status, 200);

  const elsewhere = await call(member, "POST", "/api/admin/projects/default/features", { name: "not-by-member" });
  assertError(elsewhere, 403, "NoAccessError");
  assert.is(elsewhere.json.message, 'You need the "CREATE_FEATURE" permission to perform this action.');

  const access = await call(member, "POST", `${X}/role/5/access`, { users: [{ id: editor.id }] });
  assertError(access, 403, "NoAccessError");
  assert.is(access.json.message, 'You need the "UPDATE_PROJECT" permission to perform this action in the "x" project.');
});

test("four-eyes holds for Members: they propose where change requests are on, and approve others' requests", async () => {
  const direct = await call(member, "POST", `${X}/features/x-flag/environments/production/on`);
  assertError(direct, 403, "NoAccessError");
  assert.match(direct.json.message, /change request/);

  const proposed = await call(member, "POST", `${X}/environments/production/change-requests`, {
    feature: "x-flag",
    action: "updateEnabled",
    payload: { enabled: true },
  });
  assert.is(proposed.status, 200, JSON.stringify(proposed.json));
  const id = proposed.json.id as number;
  assert.is((await call(member, "PUT", `${X}/change-requests/${id}/state`, { state: "In review" })).status, 200);

  const byViewer = await call(editorViewer, "PUT", `${X}/change-requests/${id}/state`, { state: "Approved" });
  assertError(byViewer, 403, "NoAccessError");
  assert.is(
    byViewer.json.message,
    'You need the "APPROVE_CHANGE_REQUEST" permission to perform this action in the "production" environment of the "x" project.',
  );
  const own = await call(member, "PUT", `${X}/change-requests/${id}/state`, { state: "Approved" });
  assertError(own, 403, "NoAccessError");

  const seen = await call(secondMember, "GET", `${X}/change-requests/${id}`);
  assert.ok(seen.json.actions.includes("Approved"), JSON.stringify(seen.json.actions));
  assert.is((await call(editorViewer, "GET", `${X}/change-requests/${id}`)).json.actions.includes("Approved"), false);
  const approved = await call(secondMember, "PUT", `${X}/change-requests/${id}/state`, { state: "Approved" });
  assert.is(approved.status, 200, JSON.stringify(approved.json));
  const applied = await call(member, "PUT", `${X}/change-requests/${id}/state`, { state: "Applied" });
  assert.is(applied.status, 200, JSON.stringify(applied.json));
});

test("an Owner manages the project's access; a root Editor without a role in it cannot", async () => {
  const refused = await call(editor, "PUT", `${X}/users/${member.id}/roles`, { roles: [6] });
  assertError(refused, 403, "NoAccessError");
  assert.is(refused.json.message, 'You need the "UPDATE_PROJECT" permission to perform this action.');

  const before = (await db.selectFrom("events").select("id").orderBy("id", "desc").executeTakeFirstOrThrow()).id;
  assert.is((await call(owner, "POST", `${X}/role/5/access`, { users: [{ id: editor.id }] })).status, 200);
  assert.is((await call(owner, "PUT", `${X}/users/${editor.id}/roles`, { roles: [6, 4] })).status, 200);
  let access = (await call(editor, "GET", `${X}/access`)).json;
  const entry = access.users.find((u: { id: number }) => u.id === editor.id);
  assert.equal([entry.roleId, entry.roles], [4, [4, 6]]);
  // Now an Owner of x, the Editor manages access too; then the first Owner takes it all away.
  assert.is((await call(editor, "PUT", `${X}/users/${editor.id}/roles`, { roles: [4] })).status, 200);
  assert.is((await call(owner, "DELETE", `${X}/users/${editor.id}/roles`)).status, 200);
  access = (await call(editor, "GET", `${X}/access`)).json;
  assert.not.ok(access.users.some((u: { id: number }) => u.id === editor.id));
  assert.equal((await db.selectFrom("role_user").select("role_id").where("user_id", "=", editor.id).execute()).length, 0);

  const events = await db
    .selectFrom("events")
    .select(["type", "project", "created_by", "data", "pre_data"])
    .where("id", ">", before)
    .orderBy("id")
    .execute();
  assert.equal(
    events.map((e) => [e.type, e.project]),
    [
      ["project-access-added", "x"],
      ["project-access-user-roles-updated", "x"],
      ["project-access-user-roles-updated", "x"],
      ["project-access-user-roles-deleted", "x"],
    ],
  );
  assert.equal(events[0]?.data, { roleId: 5, users: [editor.id], groups: [] });
  assert.equal(
    [events[1]?.pre_data, events[1]?.data],
    [
      { userId: editor.id, roles: [5] },
      { userId: editor.id, roles: [4, 6] },
    ],
  );
  assert.equal(events[3]?.pre_data, { userId: editor.id, roles: [4] });
  assert.is(events[0]?.created_by, owner.username);
});

test("a group's role is its members' role in the project, until it is taken away", async () => {
  const refused = await call(grouped, "POST", `${X}/features`, { name: "by-group" });
  assertError(refused, 403, "NoAccessError");
  assert.is((await call(owner, "POST", `${X}/role/5/access`, { groups: [{ id: group.id }] })).status, 200);
  assert.is((await call(grouped, "POST", `${X}/features`, { name: "by-group" })).status, 201);

  const access = (await call(grouped, "GET", `${X}/access`)).json;
  assert.equal(
    access.groups.map((g: { id: number; name: string; roles: number[]; userCount: number }) => [g.id, g.name, g.roles, g.userCount]),
    [[group.id, "team-x", [5], 1]],
  );

  assert.is((await call(owner, "PUT", `${X}/groups/${group.id}/roles`, { roles: [6] })).status, 200);
  const asViewer = await call(grouped, "POST", `${X}/features`, { name: "by-group-viewer" });
  assertError(asViewer, 403, "NoAccessError");
  assert.match(asViewer.json.message, /in the "x" project\.$/);
  assert.is((await call(owner, "DELETE", `${X}/groups/${group.id}/roles`)).status, 200);
  assert.equal(await db.selectFrom("group_role").selectAll().where("group_id", "=", group.id).execute(), []);

  // Leaving the group leaves its roles.
  assert.is((await call(owner, "POST", `${X}/role/5/access`, { groups: [{ id: group.id }] })).status, 200);
  assert.is((await call(grouped, "POST", `${X}/features`, { name: "by-group-again" })).status, 201);
  await db.deleteFrom("group_users").where("user_id", "=", grouped.id).execute();
  assertError(await call(grouped, "POST", `${X}/features`, { name: "by-group-gone" }), 403, "NoAccessError");
});

test("bad input gets the documented error and changes nothing", async () => {
  const before = await stored();
  const cases: [string, string, unknown, number, string][] = [
    ["POST", `${X}/role/2/access`, { users: [{ id: member.id }] }, 404, "NotFoundError"],
    ["POST", `${X}/role/99/access`, { users: [{ id: member.id }] }, 404, "NotFoundError"],
    ["POST", "/api/admin/projects/ghost/role/5/access", { users: [{ id: member.id }] }, 404, "NotFoundError"],
    ["POST", `${X}/role/5/access`, { users: [{ id: member.id }, { id: 999_999 }] }, 400, "ValidationError"],
    ["POST", `${X}/role/5/access`, { groups: [{ id: 999_999 }] }, 400, "ValidationError"],
    ["POST", `${X}/role/5/access`, { users: [{ id: "one" }] }, 400, "ValidationError"],
    ["POST", `${X}/role/5/access`, { users: [{ id: member.id }], extra: true }, 400, "ValidationError"],
    ["POST", `${X}/role/abc/access`, { users: [] }, 400, "ValidationError"],
    ["PUT", `${X}/users/${member.id}/roles`, { roles: [1] }, 400, "ValidationError"],
    ["PUT", `${X}/users/${member.id}/roles`, { roles: [5, 7] }, 400, "ValidationError"],
    ["PUT", `${X}/users/${member.id}/roles`, {}, 400, "ValidationError"],
    ["PUT", `${X}/users/999999/roles`, { roles: [5] }, 404, "NotFoundError"],
    ["PUT", `${X}/groups/999999/roles`, { roles: [5] }, 404, "NotFoundError"],
    ["PUT", `/api/admin/projects/ghost/users/${member.id}/roles`, { roles: [5] }, 404, "NotFoundError"],
    ["DELETE", `${X}/users/999999/roles`, undefined, 404, "NotFoundError"],
    ["DELETE", `${X}/groups/0/roles`, undefined, 400, "ValidationError"],
    ["GET", "/api/admin/projects/ghost/access", undefined, 404, "NotFoundError"],
  ];
  for (const [method, path, body, status, name] of cases) {
    const res = await srv.call(method, path, { headers: admin, ...(body === undefined ? {} : { body }) });
    assert.is(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.json)}`);
    assert.is(res.json.name, name, `${method} ${path}`);
  }
  const badRole = await srv.call("PUT", `${X}/users/${member.id}/roles`, { headers: admin, body: { roles: [5, 7] } });
  assert.equal(badRole.json.details, [{ path: "roles.1", message: "not a project role" }]);
  assert.equal(await stored(), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
