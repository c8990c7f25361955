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

test("the server says what the caller may do in a project: GET .../permissions", async () => {
  const held = async (who: { headers: Record<string, string> }, project: string) => {
    const res = await call(who, "GET", `/api/admin/projects/${project}/permissions`);
    assert.is(res.status, 200, JSON.stringify(res.json));
    assert.is(res.json.project, project);
    return res.json.permissions as string[];
  };
  const flagWrites = ["CREATE_FEATURE", "UPDATE_FEATURE", "UPDATE_FEATURE_ENVIRONMENT", "CREATE_FEATURE_STRATEGY"];
  const inX = await held(member, "x");
  for (const p of flagWrites) assert.ok(inX.includes(p), p);
  assert.not.ok(inX.includes("UPDATE_PROJECT"));
  assert.not.ok(inX.includes("SKIP_CHANGE_REQUEST"));
  assert.ok((await held(owner, "x")).includes("UPDATE_PROJECT"));
  // A root Viewer writes nowhere else; a root Editor who is a Viewer of x writes in x nothing, elsewhere what an Editor does.
  assert.equal(await held(member, "default"), []);
  const viewerInX = await held(editorViewer, "x");
  for (const p of flagWrites) assert.not.ok(viewerInX.includes(p), p);
  assert.ok(viewerInX.includes("CREATE_TAG_TYPE"), "a root permission stays the root role's");
  for (const p of flagWrites) assert.ok((await held(editorViewer, "default")).includes(p), p);
  assert.ok((await srv.call("GET", `${X}/permissions`, { headers: admin })).json.permissions.includes("ADMIN"));
  assertError(await call(member, "GET", "/api/admin/projects/ghost/permissions"), 404, "NotFoundError");
  assertError(await srv.call("GET", `${X}/permissions`), 401, "AuthenticationRequired");
});

test("the inbox counts and lists by the role in each request's project", async () => {
  const proposed = await call(member, "POST", `${X}/environments/production/change-requests`, {
    feature: "x-flag",
    action: "updateEnabled",
    payload: { enabled: false },
  });
  assert.is(proposed.status, 200, JSON.stringify(proposed.json));
  const id = proposed.json.id as number;
  assert.is((await call(member, "PUT", `${X}/change-requests/${id}/state`, { state: "In review" })).status, 200);
  const inbox = async (who: { headers: Record<string, string> }) => {
    const res = await call(who, "GET", "/api/admin/change-requests/inbox");
    assert.is(res.status, 200, JSON.stringify(res.json));
    return { review: res.json.review as number, ids: res.json.changeRequests.map((r: { id: number }) => r.id) as number[] };
  };
  // A root Viewer who is a Member of x reviews it; a root Editor who is a Viewer of x does not see it.
  const bySecond = await inbox(secondMember);
  assert.ok(bySecond.ids.includes(id), JSON.stringify(bySecond));
  assert.is(bySecond.review, bySecond.ids.length);
  const byViewer = await inbox(editorViewer);
  assert.not.ok(byViewer.ids.includes(id), JSON.stringify(byViewer));
  assert.is(byViewer.review, byViewer.ids.length);
  // Its author waits on nobody but others; a root Editor with no role in x reviews it as before.
  assert.not.ok((await inbox(member)).ids.includes(id));
  assert.ok((await inbox(editor)).ids.includes(id));
  assert.is((await call(member, "PUT", `${X}/change-requests/${id}/state`, { state: "Cancelled" })).status, 200);
});

test("an import is checked in the project it imports into", async () => {
  const document = (project: string, name: string) => ({
    project,
    environment: "development",
    data: { features: [{ name }], featureStrategies: [{ name: "default", featureName: name }], tagTypes: [] },
  });
  const intoX = await call(member, "POST", "/api/admin/features-batch/import", document("x", "imported-by-member"));
  assert.is(intoX.status, 200, JSON.stringify(intoX.json));
  assert.is(
    (await db.selectFrom("features").select("project_id").where("name", "=", "imported-by-member").executeTakeFirst())?.project_id,
    "x",
  );
  assert.is((await trpc(member, "featuresBatch.import", document("x", "imported-over-trpc"))).status, 200);

  const intoDefault = await call(member, "POST", "/api/admin/features-batch/import", document("default", "not-imported"));
  assertError(intoDefault, 403, "NoAccessError");
  assert.is(intoDefault.json.message, 'You need the "UPDATE_FEATURE" permission to perform this action in the "development" environment.');
  const byViewer = await call(editorViewer, "POST", "/api/admin/features-batch/import", document("x", "not-imported"));
  assertError(byViewer, 403, "NoAccessError");
  assert.is(
    byViewer.json.message,
    'You need the "UPDATE_FEATURE" permission to perform this action in the "development" environment of the "x" project.',
  );
  // Nobody with no role that writes anywhere gets past the check before the body: a 403, not a 400.
  const nobody = await userWithRole(srv, "viewer");
  assertError(await call(nobody, "POST", "/api/admin/features-batch/import", { project: 5 }), 403, "NoAccessError");
  assert.is(await db.selectFrom("features").select("name").where("name", "=", "not-imported").executeTakeFirst(), undefined);
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

test("an Owner manages the project's settings an Owner has in Unleash: its environments and their change requests", async () => {
  await ok("POST", "/api/admin/environments", { name: "x-staging", type: "development" });
  const byMember = await call(member, "POST", `${X}/environments`, { environment: "x-staging" });
  assertError(byMember, 403, "NoAccessError");
  assert.is(byMember.json.message, 'You need the "UPDATE_PROJECT" permission to perform this action in the "x" project.');
  assertError(await call(editor, "POST", `${X}/environments`, { environment: "x-staging" }), 403, "NoAccessError");
  assert.is((await call(owner, "POST", `${X}/environments`, { environment: "x-staging" })).status, 200);
  const linked = await db.selectFrom("project_environments").select("project_id").where("environment_name", "=", "x-staging").execute();
  assert.equal(linked, [{ project_id: "x" }]);

  const config = { changeRequestsEnabled: true, requiredApprovals: 2 };
  const crByMember = await call(member, "PUT", `${X}/environments/x-staging/change-requests/config`, config);
  assertError(crByMember, 403, "NoAccessError");
  assert.match(crByMember.json.message, /"UPDATE_PROJECT" permission .* of the "x" project\.$/);
  const set = await call(owner, "PUT", `${X}/environments/x-staging/change-requests/config`, config);
  assert.is(set.status, 200, JSON.stringify(set.json));
  const stored = await db
    .selectFrom("change_request_settings")
    .select(["enabled", "required_approvals"])
    .where("project_id", "=", "x")
    .where("environment_name", "=", "x-staging")
    .executeTakeFirst();
  assert.equal(stored, { enabled: true, required_approvals: 2 });
  // Elsewhere an Owner of x is the root Viewer they are.
  assertError(
    await call(owner, "PUT", "/api/admin/projects/default/environments/production/change-requests/config", config),
    403,
    "NoAccessError",
  );
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
