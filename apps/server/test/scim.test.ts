import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, clientToken, frontendToken, loginHeaders, scimToken, userWithRole } from "./support/principals.ts";
import { type Reply, startTestServer } from "./support/test-server.ts";

// SCIM 2.0 provisioning (docs/scim.md): requests shaped as Okta and Microsoft Entra send them.
const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const idp = await scimToken(srv);

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A SCIM request as identity providers send them: SCIM's media type, the token as a bearer token. */
const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = idp) =>
  srv.call(method, `/scim/v2${path}`, {
    headers: { ...headers, ...(body !== undefined ? { "content-type": "application/scim+json" } : {}) },
    ...(body !== undefined ? { raw: JSON.stringify(body) } : {}),
  });

/** A failure in SCIM's error body (RFC 7644 §3.12), in SCIM's media type. */
function assertScimError(res: Reply, status: number, scimType?: string): void {
  assert.is(res.status, status, JSON.stringify(res.json));
  assert.is(res.headers["content-type"], "application/scim+json; charset=utf-8");
  assert.equal(res.json.schemas, [ERROR]);
  assert.is(res.json.status, String(status));
  assert.is(res.json.scimType, scimType);
  assert.type(res.json.detail, "string");
}

/** A resource deleted: 204 and no body (RFC 7644 §3.6). */
function assertNoContent(res: Reply): void {
  assert.equal([res.status, res.json], [204, undefined]);
}

function assertScim(res: Reply, status: number): void {
  assert.is(res.status, status, JSON.stringify(res.json));
  assert.is(res.headers["content-type"], "application/scim+json; charset=utf-8");
}

/** What a refused request must leave as it was. */
async function stored() {
  return {
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    groups: await db.selectFrom("groups").selectAll().orderBy("id").execute(),
    members: await db.selectFrom("group_users").select(["group_id", "user_id"]).orderBy("group_id").orderBy("user_id").execute(),
    events: (await db.selectFrom("events").select("id").orderBy("id", "desc").limit(1).executeTakeFirst())?.id ?? 0,
  };
}

const userRow = (scimId: string) => db.selectFrom("users").selectAll().where("scim_id", "=", scimId).executeTakeFirst();

test("discovery: ServiceProviderConfig, ResourceTypes and Schemas in SCIM's media type", async () => {
  const config = await scim("GET", "/ServiceProviderConfig");
  assertScim(config, 200);
  assert.equal(config.json.schemas, ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"]);
  assert.equal([config.json.patch.supported, config.json.filter.supported, config.json.bulk.supported], [true, true, false]);
  assert.is(config.json.authenticationSchemes[0].type, "oauthbearertoken");
  const types = await scim("GET", "/ResourceTypes");
  assertScim(types, 200);
  assert.equal(
    types.json.Resources.map((t: { name: string; endpoint: string; schema: string }) => [t.name, t.endpoint, t.schema]),
    [
      ["User", "/Users", USER],
      ["Group", "/Groups", GROUP],
    ],
  );
  const schemas = await scim("GET", "/Schemas");
  assertScim(schemas, 200);
  const user = schemas.json.Resources.find((s: { id: string }) => s.id === USER);
  assert.equal(
    user.attributes.map((a: { name: string }) => a.name),
    ["userName", "externalId", "displayName", "name", "emails", "active"],
  );
});

test("Okta: look up, create, read, deactivate, reactivate, update and delete a user", async () => {
  const lookUp = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "dana.scully@example.com"')}&startIndex=1&count=100`);
  assertScim(lookUp, 200);
  assert.equal(lookUp.json, {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
    totalResults: 0,
    startIndex: 1,
    itemsPerPage: 0,
    Resources: [],
  });

  // Okta's create, as its SCIM 2.0 app sends it (a password only when password sync is on: Vexil keeps none).
  const created = await scim("POST", "/Users", {
    schemas: [USER],
    userName: "dana.scully@example.com",
    name: { givenName: "Dana", familyName: "Scully" },
    emails: [{ primary: true, value: "dana.scully@example.com", type: "work" }],
    displayName: "Dana Scully",
    locale: "en-US",
    externalId: "00u1abcdEFGH",
    groups: [],
    password: "a password Okta syncs",
    active: true,
  });
  assertScim(created, 201);
  const id = created.json.id as string;
  assert.match(id, UUID);
  assert.is(created.headers.location, `/scim/v2/Users/${id}`);
  assert.equal(
    { ...created.json, meta: { ...created.json.meta, created: "" } },
    {
      schemas: [USER],
      id,
      externalId: "00u1abcdEFGH",
      userName: "dana.scully@example.com",
      displayName: "Dana Scully",
      name: { formatted: "Dana Scully" },
      emails: [{ value: "dana.scully@example.com", type: "work", primary: true }],
      active: true,
      meta: { resourceType: "User", created: "", location: `/scim/v2/Users/${id}` },
    },
  );
  const row = await userRow(id);
  assert.equal(
    [row?.username, row?.email, row?.name, row?.root_role, row?.password_hash, row?.active, row?.scim_external_id],
    ["dana.scully@example.com", "dana.scully@example.com", "Dana Scully", 3, null, true, "00u1abcdEFGH"],
  );

  // userName is compared without regard to case (RFC 7643 §4.1.1).
  const found = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "Dana.Scully@example.com"')}`);
  assert.equal([found.json.totalResults, found.json.Resources[0].id], [1, id]);
  const read = await scim("GET", `/Users/${id}`);
  assertScim(read, 200);
  assert.equal(read.json, created.json);

  // The admin API shows who came from SCIM.
  const listed = await srv.call("GET", "/api/admin/user-admin", { headers: admin });
  const byName = (name: string) => listed.json.users.find((u: { username: string }) => u.username === name);
  assert.is(byName("dana.scully@example.com").scimId, id);
  assert.is("scimId" in byName("admin"), false);

  const deactivate = await scim("PATCH", `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "replace", value: { active: false } }],
  });
  assertScim(deactivate, 200);
  assert.is(deactivate.json.active, false);
  assert.is((await userRow(id))?.active, false);

  const reactivate = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true } }] });
  assert.is(reactivate.json.active, true);

  // Okta's profile push is a PUT of the whole user, id included.
  const replaced = await scim("PUT", `/Users/${id}`, {
    schemas: [USER],
    id,
    userName: "dana.scully@example.com",
    name: { givenName: "Dana", familyName: "Mulder" },
    emails: [{ primary: true, value: "dana.mulder@example.com", type: "work" }],
    active: true,
  });
  assertScim(replaced, 200);
  assert.equal(
    [replaced.json.displayName, replaced.json.emails[0].value, replaced.json.externalId],
    ["Dana Mulder", "dana.mulder@example.com", undefined],
  );

  const deleted = await scim("DELETE", `/Users/${id}`);
  assert.equal([deleted.status, deleted.json], [204, undefined]);
  assert.is(await userRow(id), undefined);
  assertScimError(await scim("GET", `/Users/${id}`), 404);
  const events = await db.selectFrom("events").select(["type", "created_by"]).where("type", "like", "user-%").orderBy("id").execute();
  assert.equal(
    events.slice(-5).map((e) => e.type),
    ["user-created", "user-deactivated", "user-reactivated", "user-updated", "user-deleted"],
  );
  assert.ok(events.slice(-5).every((e) => e.created_by.startsWith("scim-")));
});

test("Entra: create with its extension and roles, then PATCH with capitalised ops, filtered paths and string booleans", async () => {
  assertScim(await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "7b3f1c2e-unknown"')}`), 200);
  const created = await scim("POST", "/Users", {
    schemas: [USER, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
    externalId: "fox",
    userName: "Fox.Mulder@contoso.com",
    active: true,
    emails: [{ primary: true, type: "work", value: "Fox.Mulder@contoso.com" }],
    meta: { resourceType: "User" },
    name: { formatted: "Fox Mulder", familyName: "Mulder", givenName: "Fox" },
    roles: [],
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "X-Files" },
  });
  assertScim(created, 201);
  const id = created.json.id as string;
  assert.is(created.json.displayName, "Fox Mulder");

  const patched = await scim("PATCH", `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [
      { op: "Replace", path: 'emails[type eq "work"].value', value: "fox@contoso.com" },
      { op: "Replace", path: "name.familyName", value: "Mulder-Scully" },
      { op: "Add", path: 'phoneNumbers[type eq "work"].value', value: "555-0100" },
      { op: "Replace", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Basement" },
      { op: "Replace", path: "displayName", value: "Fox W. Mulder" },
    ],
  });
  assertScim(patched, 200);
  assert.equal([patched.json.emails[0].value, patched.json.displayName], ["fox@contoso.com", "Fox W. Mulder"]);
  assert.equal([(await userRow(id))?.email, (await userRow(id))?.name], ["fox@contoso.com", "Fox W. Mulder"]);

  // Entra sends booleans as the strings "False" and "True".
  const disabled = await scim("PATCH", `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "Replace", path: "active", value: "False" }],
  });
  assert.is(disabled.json.active, false);
  const enabled = await scim("PATCH", `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "Replace", path: "active", value: "True" }],
  });
  assert.is(enabled.json.active, true);
  const byExternalId = await scim(
    "GET",
    `/Users?filter=${encodeURIComponent('externalId eq "fox" and userName eq "fox.mulder@contoso.com"')}`,
  );
  assert.equal(
    byExternalId.json.Resources.map((u: { id: string }) => u.id),
    [id],
  );
  assertNoContent(await scim("DELETE", `/Users/${id}`));
});

test("paging: startIndex is 1-based, count bounds the page, totalResults counts them all", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await scim("POST", "/Users", { userName: `page-${i}@example.com` })).json.id);
  const all = (await scim("GET", "/Users")).json;
  const first = await scim("GET", "/Users?startIndex=2&count=1");
  assert.equal([first.json.totalResults, first.json.startIndex, first.json.itemsPerPage], [all.totalResults, 2, 1]);
  assert.is(first.json.Resources[0].id, all.Resources[1].id);
  const none = await scim("GET", "/Users?count=0");
  assert.equal([none.json.totalResults, none.json.Resources], [all.totalResults, []]);
  assert.is((await scim("GET", "/Users?startIndex=-4&count=1")).json.startIndex, 1);
  for (const id of ids) await scim("DELETE", `/Users/${id}`);
});

test("groups: Entra's create, look-up without members, members added and removed; Okta's rename and one-member removal", async () => {
  const alice = (await scim("POST", "/Users", { userName: "alice@contoso.com" })).json.id as string;
  const bob = (await scim("POST", "/Users", { userName: "bob@contoso.com" })).json.id as string;
  const created = await scim("POST", "/Groups", {
    schemas: [GROUP],
    externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
    displayName: "Flag Owners",
    members: [],
  });
  assertScim(created, 201);
  const id = created.json.id as string;
  assert.is(created.headers.location, `/scim/v2/Groups/${id}`);
  assert.equal([created.json.displayName, created.json.members], ["Flag Owners", []]);

  const lookUp = await scim("GET", `/Groups?filter=${encodeURIComponent('displayName eq "flag owners"')}&excludedAttributes=members`);
  assertScim(lookUp, 200);
  assert.equal(
    lookUp.json.Resources.map((g: { id: string; members?: unknown }) => [g.id, g.members]),
    [[id, undefined]],
  );

  const added = await scim("PATCH", `/Groups/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "Add", path: "members", value: [{ value: alice }, { value: bob }] }],
  });
  assertScim(added, 200);
  assert.equal(added.json.members.map((m: { value: string }) => m.value).sort(), [alice, bob].sort());
  const groupRow = await db.selectFrom("groups").selectAll().where("scim_id", "=", id).executeTakeFirstOrThrow();
  const memberIds = async () =>
    (
      await db
        .selectFrom("group_users")
        .innerJoin("users", "users.id", "group_users.user_id")
        .select("users.scim_id")
        .where("group_id", "=", groupRow.id)
        .execute()
    )
      .map((m) => m.scim_id)
      .sort();
  assert.equal(await memberIds(), [alice, bob].sort());

  const removed = await scim("PATCH", `/Groups/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "Remove", path: "members", value: [{ value: alice }] }],
  });
  assertScim(removed, 200);
  assert.equal(await memberIds(), [bob]);

  // Okta renames with a value and no path, and removes one member by a filtered path.
  const renamed = await scim("PATCH", `/Groups/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: "replace", value: { id, displayName: "Flag Stewards" } }],
  });
  assert.is(renamed.json.displayName, "Flag Stewards");
  await scim("PATCH", `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${bob}"]` }] });
  assert.equal(await memberIds(), []);

  // Okta's PUT of the whole group replaces its members.
  const put = await scim("PUT", `/Groups/${id}`, {
    schemas: [GROUP],
    id,
    displayName: "Flag Stewards",
    members: [{ value: alice, display: "alice" }],
  });
  assertScim(put, 200);
  assert.equal(await memberIds(), [alice]);

  // The admin API's read of groups (Unleash's), with who came from SCIM.
  const groups = await srv.call("GET", "/api/admin/groups", { headers: admin });
  assert.is(groups.status, 200);
  const listed = groups.json.groups.find((g: { id: number }) => g.id === groupRow.id);
  assert.equal([listed.name, listed.scimId, listed.userCount, listed.users[0].user.scimId], ["Flag Stewards", id, 1, alice]);
  const one = await srv.call("GET", `/api/admin/groups/${groupRow.id}`, { headers: admin });
  assert.equal([one.status, one.json.name], [200, "Flag Stewards"]);
  assertError(await srv.call("GET", "/api/admin/groups/987654", { headers: admin }), 404, "NotFoundError");

  // Deleting a member leaves the group; deleting the group leaves the users.
  await scim("DELETE", `/Users/${alice}`);
  assert.equal(await memberIds(), []);
  assertNoContent(await scim("DELETE", `/Groups/${id}`));
  assert.is(await db.selectFrom("groups").select("id").where("scim_id", "=", id).executeTakeFirst(), undefined);
  assert.ok(await userRow(bob));
  await scim("DELETE", `/Users/${bob}`);
});

test("errors: SCIM's body and scimType, and a refused request changes nothing", async () => {
  const taken = (await scim("POST", "/Users", { userName: "taken@example.com", emails: [{ value: "taken@example.com" }] })).json
    .id as string;
  const group = (await scim("POST", "/Groups", { displayName: "Taken group" })).json.id as string;
  const before = await stored();

  assertScimError(await scim("POST", "/Users", { userName: "TAKEN@example.com" }), 409, "uniqueness");
  assertScimError(
    await scim("POST", "/Users", { userName: "other@example.com", emails: [{ value: "Taken@Example.com" }] }),
    409,
    "uniqueness",
  );
  assertScimError(await scim("POST", "/Groups", { displayName: "Taken group" }), 409, "uniqueness");
  for (const filter of [
    'userName sw "t"',
    'userName eq "a" or userName eq "b"',
    'emails[type eq "work"] eq "x"',
    'title eq "x"',
    'userName eq "a" and',
    "userName eq unquoted",
  ]) {
    assertScimError(await scim("GET", `/Users?filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
  }
  assertScimError(await scim("GET", `/Groups?filter=${encodeURIComponent('userName eq "x"')}`), 400, "invalidFilter");
  assertScimError(await scim("POST", "/Users", { displayName: "No userName" }), 400, "invalidValue");
  assertScimError(await scim("POST", "/Users", { userName: "x@example.com", emails: [{ value: "not an address" }] }), 400, "invalidValue");
  assertScimError(await scim("POST", "/Users", { userName: "x@example.com", active: "maybe" }), 400, "invalidValue");
  assertScimError(
    await scim("PATCH", `/Users/${taken}`, { schemas: [PATCH_OP], Operations: [{ op: "move", path: "active", value: false }] }),
    400,
    "invalidSyntax",
  );
  assertScimError(await scim("PATCH", `/Users/${taken}`, { schemas: [PATCH_OP], Operations: [] }), 400, "invalidSyntax");
  assertScimError(
    await scim("PATCH", `/Users/${taken}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "emails[type eq", value: "x" }] }),
    400,
    "invalidPath",
  );
  assertScimError(
    await scim("PATCH", `/Users/${taken}`, { schemas: [PATCH_OP], Operations: [{ op: "remove", path: "userName" }] }),
    400,
    "mutability",
  );
  assertScimError(await scim("PATCH", `/Users/${taken}`, { schemas: [PATCH_OP], Operations: [{ op: "remove" }] }), 400, "noTarget");
  // A PATCH refused halfway leaves the first operation undone too.
  assertScimError(
    await scim("PATCH", `/Users/${taken}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "replace", path: "displayName", value: "Changed" },
        { op: "replace", path: "active", value: "perhaps" },
      ],
    }),
    400,
    "invalidValue",
  );
  assertScimError(
    await scim("PATCH", `/Groups/${group}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "add", path: "members", value: [{ value: "no-such-user" }] }],
    }),
    400,
    "invalidValue",
  );
  assertScimError(await scim("GET", "/Users/no-such-user"), 404);
  assertScimError(await scim("PUT", "/Users/no-such-user", { userName: "ghost@example.com" }), 404);
  assertScimError(await scim("DELETE", "/Groups/no-such-group"), 404);

  // The body: SCIM's media type or JSON; anything else is a 415, broken JSON invalidSyntax.
  const text = await srv.call("POST", "/scim/v2/Users", { headers: { ...idp, "content-type": "text/plain" }, raw: "userName=x" });
  assertScimError(text, 415);
  const broken = await srv.call("POST", "/scim/v2/Users", { headers: { ...idp, "content-type": "application/scim+json" }, raw: "{" });
  assertScimError(broken, 400, "invalidSyntax");
  const plainJson = await srv.call("POST", "/scim/v2/Users", { headers: idp, body: { userName: "TAKEN@example.com" } });
  assertScimError(plainJson, 409, "uniqueness");
  assertScimError(await scim("GET", "/Users?count=many"), 400, "invalidValue");
  assertScimError(await scim("GET", "/Users?count=1&count=2"), 400, "invalidValue");

  assert.equal(await stored(), before);
});

test("the SCIM token is good for /scim/v2 only, and nothing else's token is", async () => {
  assertScimError(await scim("GET", "/Users", undefined, {}), 401);
  assertScimError(await scim("GET", "/Users", undefined, { authorization: "Bearer scim:not-a-token" }), 401);
  for (const headers of [admin, await clientToken(srv), await frontendToken(srv), (await userWithRole(srv, "admin")).headers]) {
    const res = await scim("POST", "/Users", { userName: "intruder@example.com" }, headers);
    assertScimError(res, 403);
    assert.match(res.json.detail, "SCIM token");
  }
  assert.is((await db.selectFrom("users").select("id").where("username", "=", "intruder@example.com").execute()).length, 0);

  for (const [method, path] of [
    ["GET", "/api/admin/projects"],
    ["GET", "/api/admin/user-admin"],
    ["POST", "/api/admin/api-tokens"],
    ["GET", "/api/client/features"],
    ["POST", "/api/frontend"],
  ] as const) {
    const res = await srv.call(method, path, { headers: idp, ...(method === "POST" ? { body: {} } : {}) });
    assertError(res, 403, "NoAccessError");
  }
  // OFREP answers in its own body.
  const ofrep = await srv.call("POST", "/ofrep/v1/evaluate/flags", { headers: idp, body: {} });
  assert.equal([ofrep.status, ofrep.json.errorCode], [403, "GENERAL"]);
  // Over tRPC as well.
  assert.is((await srv.call("GET", "/trpc/projects.list", { headers: idp })).status, 403);
  assert.is((await srv.call("GET", "/trpc/scim.listUsers", { headers: admin })).status, 403);
  assert.is((await srv.call("GET", "/trpc/scim.listUsers", { headers: idp })).status, 200);
});

test("a SCIM token: made by an Admin only, listed with its type, revoked like any", async () => {
  const made = await srv.call("POST", "/api/admin/api-tokens", { headers: admin, body: { tokenName: "okta", type: "scim" } });
  assert.is(made.status, 201);
  assert.match(made.json.secret, /^scim:[0-9a-f]{64}$/);
  assert.equal([made.json.type, made.json.projects, made.json.environment], ["scim", ["*"], "*"]);
  const editor = await userWithRole(srv, "editor");
  const refused = await srv.call("POST", "/api/admin/api-tokens", { headers: editor.headers, body: { tokenName: "mine", type: "scim" } });
  assertError(refused, 403, "NoAccessError");
  const listed = await srv.call("GET", "/api/admin/api-tokens", { headers: admin });
  assert.ok(listed.json.tokens.some((t: { id: number; type: string }) => t.id === made.json.id && t.type === "scim"));
  const bearer = { authorization: `Bearer ${made.json.secret}` };
  assert.is((await scim("GET", "/Users", undefined, bearer)).status, 200);
  assert.is((await srv.call("DELETE", `/api/admin/api-tokens/${made.json.id}`, { headers: admin })).status, 200);
  assertScimError(await scim("GET", "/Users", undefined, bearer), 401);
});

test("a provisioned user: scimId at login, no change by hand, no password login without one, sessions and tokens end on deactivation", async () => {
  const created = await scim("POST", "/Users", { userName: "walter@example.com", displayName: "Walter Skinner" });
  const id = created.json.id as string;
  const row = (await userRow(id))!;
  const before = await stored();
  // Refused by hand, with a 409 that names SCIM; nothing changes.
  const del = await srv.call("DELETE", `/api/admin/user-admin/${row.id}`, { headers: admin });
  assertError(del, 409, "ConflictError");
  assert.match(del.json.message, "SCIM");
  const pw = await srv.call("POST", `/api/admin/user-admin/${row.id}/change-password`, {
    headers: admin,
    body: { password: "a brand new password" },
  });
  assertError(pw, 409, "ConflictError");
  // Without a password there is no password login.
  assertError(
    await srv.call("POST", "/auth/simple/login", { body: { username: "walter@example.com", password: "anything at all" } }),
    401,
    "PasswordMismatch",
  );
  assert.equal(await stored(), { ...before, users: before.users.map((u) => (u.id === row.id ? { ...u, login_attempts: 1 } : u)) });

  // A provisioned user who has a password (set in the database here, as a stand-in for the
  // identity provider's sign-in) logs in; the login answer carries scimId.
  await db
    .updateTable("users")
    .set({ password_hash: await srv.app.deps.hasher.hash("walter's own password") })
    .where("id", "=", row.id)
    .execute();
  const login = await srv.call("POST", "/auth/simple/login", {
    body: { username: "walter@example.com", password: "walter's own password" },
  });
  assert.equal([login.status, login.json.scimId], [200, id]);
  const session = await loginHeaders(srv, "walter@example.com", "walter's own password");
  const pat = await srv.call("POST", "/api/admin/user/tokens", {
    headers: session,
    body: { description: "cli", expiresAt: "2099-01-01T00:00:00.000Z" },
  });
  const token = { authorization: pat.json.secret };
  assert.is((await srv.call("GET", "/api/admin/projects", { headers: session })).status, 200);
  assert.is((await srv.call("GET", "/api/admin/projects", { headers: token })).status, 200);
  // Nor may the user change their own password: the provider manages it.
  assertError(
    await srv.call("POST", "/api/admin/user/change-password", {
      headers: session,
      body: { password: "walter's new password", oldPassword: "walter's own password" },
    }),
    409,
    "ConflictError",
  );

  const off = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] });
  assert.is(off.json.active, false);
  // On this instance at once: the commit evicted both.
  assertError(await srv.call("GET", "/api/admin/projects", { headers: session }), 401, "AuthenticationRequired");
  assertError(await srv.call("GET", "/api/admin/projects", { headers: token }), 401, "AuthenticationRequired");
  assert.equal(await db.selectFrom("sessions").select("id").where("user_id", "=", row.id).execute(), []);
  assert.equal(await db.selectFrom("api_tokens").select("id").where("user_id", "=", row.id).execute(), []);
  const event = await db
    .selectFrom("events")
    .select(["data"])
    .where("type", "=", "user-deactivated")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  assert.equal([(event.data as { sessionsEnded: number }).sessionsEnded, (event.data as { tokensDeleted: number }).tokensDeleted], [2, 1]);
  // A deactivated user cannot log in, whatever the password.
  assertError(
    await srv.call("POST", "/auth/simple/login", { body: { username: "walter@example.com", password: "walter's own password" } }),
    401,
    "PasswordMismatch",
  );
  // Reactivated, the ended session stays ended; a new login works.
  await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true } }] });
  assertError(await srv.call("GET", "/api/admin/projects", { headers: session }), 401, "AuthenticationRequired");
  assert.is(
    (await srv.call("POST", "/auth/simple/login", { body: { username: "walter@example.com", password: "walter's own password" } })).status,
    200,
  );
  // Deleting over SCIM ends the sessions too.
  const again = await loginHeaders(srv, "walter@example.com", "walter's own password");
  assertNoContent(await scim("DELETE", `/Users/${id}`));
  assertError(await srv.call("GET", "/api/admin/projects", { headers: again }), 401, "AuthenticationRequired");
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
