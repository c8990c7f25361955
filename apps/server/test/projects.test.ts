import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function stored() {
  const projects = await db.selectFrom("projects").selectAll().orderBy("id").execute();
  const links = await db.selectFrom("project_environments").selectAll().orderBy("project_id").orderBy("environment_name").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { projects, links, events };
}

test("POST /api/admin/projects creates a project: 201 with it, and an event", async () => {
  const res = await srv.call("POST", "/api/admin/projects", { body: { id: "web", name: "Web", description: "Shop" }, headers: admin });
  assert.is(res.status, 201, JSON.stringify(res.json));
  assert.match(res.json.createdAt, ISO_MS);
  assert.equal({ ...res.json, createdAt: "" }, { id: "web", name: "Web", description: "Shop", createdAt: "" });
  const event = await db.selectFrom("events").selectAll().where("type", "=", "project-created").executeTakeFirstOrThrow();
  assert.equal([event.project, event.data], ["web", res.json]);

  const bare = await srv.call("POST", "/api/admin/projects", { body: { id: "bare", name: "Bare" }, headers: admin });
  assert.equal([bare.status, bare.json.description], [201, null]);
});

test("GET /api/admin/projects lists them for any authenticated caller", async () => {
  for (const headers of [admin, editor.headers, viewer.headers]) {
    const res = await srv.call("GET", "/api/admin/projects", { headers });
    assert.is(res.status, 200);
    assert.is(res.json.version, 1);
    assert.equal(
      res.json.projects.map((p: { id: string }) => p.id),
      ["bare", "default", "web"],
    );
  }
  assertError(await srv.call("GET", "/api/admin/projects", { headers: client }), 403, "NoAccessError");
  assertError(await srv.call("GET", "/api/admin/projects"), 401, "AuthenticationRequired");
});

test("a taken project id is 409 NameExistsError; nothing changes", async () => {
  const before = await stored();
  const res = await srv.call("POST", "/api/admin/projects", { body: { id: "default", name: "Again" }, headers: admin });
  assertError(res, 409, "NameExistsError");
  assert.is(res.json.message, 'A project with the id "default" already exists.');
  assert.equal(await stored(), before);
});

test("bad project bodies are 400 naming the field; nothing changes", async () => {
  const before = await stored();
  const bodies: [unknown, string][] = [
    [{ id: "has space", name: "x" }, "id"],
    [{ id: "..", name: "x" }, "id"],
    [{ id: "", name: "x" }, "id"],
    [{ id: "i".repeat(101), name: "x" }, "id"],
    [{ name: "x" }, "id"],
    [{ id: "fine", name: " " }, "name"],
    [{ id: "fine" }, "name"],
    [{ id: "fine", name: "x", mode: "open" }, ""],
  ];
  for (const [body, field] of bodies) {
    const res = await srv.call("POST", "/api/admin/projects", { body, headers: admin });
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assert.equal(await stored(), before);
});

test("creating a project needs ADMIN: an editor gets 403 naming it", async () => {
  const res = await srv.call("POST", "/api/admin/projects", { body: { id: "mine", name: "Mine" }, headers: editor.headers });
  assertError(res, 403, "NoAccessError");
  assert.is(res.json.message, 'You need the "ADMIN" permission to perform this action.');
});

test("POST /api/admin/projects/{id}/environments enables an environment once, with an event", async () => {
  const res = await srv.call("POST", "/api/admin/projects/web/environments", { body: { environment: "production" }, headers: admin });
  assert.equal([res.status, res.json], [200, { projectId: "web", environment: "production" }]);
  const links = await db.selectFrom("project_environments").selectAll().where("project_id", "=", "web").execute();
  assert.equal(links, [{ project_id: "web", environment_name: "production" }]);
  const event = await db.selectFrom("events").selectAll().where("type", "=", "project-environment-added").executeTakeFirstOrThrow();
  assert.equal([event.project, event.environment], ["web", "production"]);

  const before = await stored();
  const again = await srv.call("POST", "/api/admin/projects/web/environments", { body: { environment: "production" }, headers: admin });
  assertError(again, 409, "NameExistsError");
  assert.equal(await stored(), before);
});

test("enabling: unknown project or environment is 404 saying which; a bad body 400; an editor 403", async () => {
  const before = await stored();
  const noProject = await srv.call("POST", "/api/admin/projects/ghost/environments", {
    body: { environment: "production" },
    headers: admin,
  });
  assertError(noProject, 404, "NotFoundError");
  assert.is(noProject.json.message, 'The project "ghost" does not exist.');
  const noEnv = await srv.call("POST", "/api/admin/projects/web/environments", { body: { environment: "moon" }, headers: admin });
  assertError(noEnv, 404, "NotFoundError");
  assert.is(noEnv.json.message, 'The environment "moon" does not exist.');
  assertError(await srv.call("POST", "/api/admin/projects/web/environments", { body: {}, headers: admin }), 400, "ValidationError");
  assertError(
    await srv.call("POST", "/api/admin/projects/web/environments", { body: { environment: "development", extra: 1 }, headers: admin }),
    400,
    "ValidationError",
  );
  assertError(
    await srv.call("POST", "/api/admin/projects/web/environments", { body: { environment: "development" }, headers: editor.headers }),
    403,
    "NoAccessError",
  );
  assert.equal(await stored(), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
