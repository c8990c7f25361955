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

async function stored() {
  const environments = await db.selectFrom("environments").selectAll().orderBy("name").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { environments, events };
}

const create = (body: unknown, headers = admin) => srv.call("POST", "/api/admin/environments", { body, headers });

test("POST /api/admin/environments creates one: 201, listed by sort order, with an event", async () => {
  const res = await create({ name: "staging", type: "test", sortOrder: 150 });
  assert.is(res.status, 201, JSON.stringify(res.json));
  assert.equal({ ...res.json, createdAt: "" }, { name: "staging", type: "test", sortOrder: 150, createdAt: "" });
  const listed = await srv.call("GET", "/api/admin/environments", { headers: viewer.headers });
  assert.equal(
    listed.json.environments.map((e: { name: string }) => e.name),
    ["development", "staging", "production"],
  );
  const event = await db.selectFrom("events").selectAll().where("type", "=", "environment-created").executeTakeFirstOrThrow();
  assert.equal([event.environment, event.data], ["staging", res.json]);
});

test("a taken name is 409; bad bodies are 400; nothing changes", async () => {
  const before = await stored();
  assertError(await create({ name: "production", type: "production" }), 409, "NameExistsError");
  const bodies: [unknown, string][] = [
    [{ name: "a b", type: "test" }, "name"],
    [{ name: ".", type: "test" }, "name"],
    [{ name: "e".repeat(101), type: "test" }, "name"],
    [{ name: "qa" }, "type"],
    [{ name: "qa", type: "" }, "type"],
    [{ name: "qa", type: "test", sortOrder: 1.5 }, "sortOrder"],
    [{ name: "qa", type: "test", enabled: true }, ""],
  ];
  for (const [body, field] of bodies) {
    const res = await create(body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body)}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assert.equal(await stored(), before);
});

test("creating needs ADMIN: editor and viewer 403, client token 403, nobody 401", async () => {
  const before = await stored();
  for (const headers of [editor.headers, viewer.headers, client]) {
    assertError(await create({ name: "qa", type: "test" }, headers), 403, "NoAccessError");
  }
  assertError(await create({ name: "qa", type: "test" }, {}), 401, "AuthenticationRequired");
  assert.equal(await stored(), before);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
