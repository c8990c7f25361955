import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const editor = await userWithRole(srv, "editor");
const client = await clientToken(srv);

const events = (query = "", headers = admin) => srv.call("GET", `/api/admin/events${query}`, { headers });
const storedIds = async () => (await db.selectFrom("events").select("id").orderBy("id", "desc").execute()).map((e) => e.id);

test("GET /api/admin/events lists the log newest first, with what each write stored", async () => {
  const created = await srv.call("POST", "/api/admin/banners", { body: { message: "Hello" }, headers: admin });
  assert.is(created.status, 201);
  const res = await events();
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.json.version, 1);
  assert.equal(
    res.json.events.map((e: { id: number }) => e.id),
    (await storedIds()).slice(0, 100),
  );
  const [newest] = res.json.events;
  assert.equal(
    { ...newest, id: 0, createdAt: "" },
    {
      id: 0,
      type: "banner-created",
      createdBy: newest.createdBy,
      createdAt: "",
      project: null,
      environment: null,
      featureName: null,
      data: created.json,
      preData: null,
    },
  );
});

test("limit and before page through the log without gaps or repeats", async () => {
  for (const message of ["a", "b", "c", "d"]) await srv.call("POST", "/api/admin/banners", { body: { message }, headers: admin });
  const all = await storedIds();
  const first = await events("?limit=2");
  assert.equal(
    first.json.events.map((e: { id: number }) => e.id),
    all.slice(0, 2),
  );
  const next = await events(`?limit=3&before=${all[1]}`);
  assert.equal(
    next.json.events.map((e: { id: number }) => e.id),
    all.slice(2, 5),
  );
});

test("a bad limit or before is a 400 naming it; the log needs ADMIN", async () => {
  for (const [query, field] of [
    ["?limit=0", "limit"],
    ["?limit=1001", "limit"],
    ["?limit=x", "limit"],
    ["?before=-1", "before"],
  ]) {
    const res = await events(query);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === field),
      `${query}: ${JSON.stringify(res.json.details)}`,
    );
  }
  assertError(await events("", editor.headers), 403, "NoAccessError");
  assertError(await events("", client), 403, "NoAccessError");
  assertError(await events("", {}), 401, "AuthenticationRequired");
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
