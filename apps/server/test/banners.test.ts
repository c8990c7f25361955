import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { assertError } from "./support/assert-error.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const adminUser = await userWithRole(srv, "admin");
const editor = await userWithRole(srv, "editor");
const viewer = await userWithRole(srv, "viewer");
const client = await clientToken(srv);

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DEFAULTS = {
  enabled: true,
  variant: "info",
  sticky: false,
  icon: null,
  link: null,
  linkText: null,
  dialogTitle: null,
  dialog: null,
};

const create = (body: unknown, headers = admin) => srv.call("POST", "/api/admin/banners", { body, headers });
const list = async (headers = admin) => {
  const res = await srv.call("GET", "/api/admin/banners", { headers });
  assert.is(res.status, 200);
  return res.json.banners as any[];
};

async function created(body: unknown): Promise<any> {
  const res = await create(body);
  assert.is(res.status, 201, JSON.stringify(res.json));
  return res.json;
}

/** Everything a rejected request must leave as it was: every banner and every event. */
async function stored() {
  const banners = await db.selectFrom("banners").selectAll().orderBy("id").execute();
  const events = await db.selectFrom("events").select(["id", "type"]).orderBy("id").execute();
  return { banners, events };
}

const lastEvent = () => db.selectFrom("events").selectAll().orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();

test.before.each(async () => {
  await db.deleteFrom("banners").execute();
});

test("POST fills the defaults: 201, Location, and the stored banner", async () => {
  const res = await create({ message: "Hello" });
  assert.is(res.status, 201);
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
  const { id, createdAt, ...rest } = res.json;
  assert.ok(Number.isInteger(id) && id >= 1);
  assert.match(createdAt, ISO_MS);
  assert.ok(Math.abs(Date.parse(createdAt) - Date.now()) < 60_000);
  assert.equal(rest, { message: "Hello", ...DEFAULTS });
  assert.is(res.headers.location, `/api/admin/banners/${id}`);
  assert.equal(await list(), [res.json]);
});

test("POST round-trips every field as given: markdown, white space, 'none' and 'dialog'", async () => {
  const fields = {
    message: "  **Maintenance** tonight\n\n- see [status](https://status.example.com) <b>x</b>  ",
    enabled: false,
    variant: "warning",
    sticky: true,
    icon: "none",
    link: "dialog",
    linkText: "Read more",
    dialogTitle: "What changes",
    dialog: "# Heading\n\n```sh\nrm -rf /tmp/x\n```\n",
  };
  const banner = await created(fields);
  const { id, createdAt, ...rest } = banner;
  assert.equal(rest, fields);
  assert.equal(await list(), [banner]);
});

test("POST keeps null as null and every variant as given", async () => {
  const nulls = { icon: null, link: null, linkText: null, dialogTitle: null, dialog: null };
  const banner = await created({ message: "m", ...nulls });
  assert.equal({ ...banner, id: 0, createdAt: "" }, { id: 0, createdAt: "", message: "m", ...DEFAULTS, ...nulls });
  for (const variant of ["info", "warning", "error", "success"]) {
    assert.is((await created({ message: "m", variant })).variant, variant);
  }
  for (const [field, value] of [
    ["icon", "mdi-alert"],
    ["link", "/admin/features"],
    ["link", "https://example.com/a?b=c"],
    ["linkText", ""],
    ["dialogTitle", "Title"],
  ] as const) {
    assert.is((await created({ message: "m", [field]: value }))[field], value, field);
  }
});

test("each invalid body is 400 ValidationError naming the field, and nothing is stored", async () => {
  await created({ message: "already here" });
  const before = await stored();
  const cases: [string, unknown, string][] = [
    ["missing message", {}, "message"],
    ["empty message", { message: "" }, "message"],
    ["blank message", { message: " \n\t " }, "message"],
    ["null message", { message: null }, "message"],
    ["unknown variant", { message: "m", variant: "danger" }, "variant"],
    ["variant in the wrong case", { message: "m", variant: "INFO" }, "variant"],
    ["message not a string", { message: 42 }, "message"],
    ["enabled not a boolean", { message: "m", enabled: "true" }, "enabled"],
    ["sticky not a boolean", { message: "m", sticky: 1 }, "sticky"],
    ["variant not a string", { message: "m", variant: 1 }, "variant"],
    ["icon not a string", { message: "m", icon: 5 }, "icon"],
    ["link not a string", { message: "m", link: { href: "/" } }, "link"],
    ["linkText not a string", { message: "m", linkText: ["a"] }, "linkText"],
    ["dialogTitle not a string", { message: "m", dialogTitle: true }, "dialogTitle"],
    ["dialog not a string", { message: "m", dialog: 1 }, "dialog"],
    ["enabled null", { message: "m", enabled: null }, "enabled"],
    ["an extra field", { message: "m", colour: "red" }, ""],
    ["an id chosen by the client", { message: "m", id: 99 }, ""],
    ["createdAt chosen by the client", { message: "m", createdAt: "2020-01-01T00:00:00.000Z" }, ""],
  ];
  for (const [why, body, path] of cases) {
    const res = await create(body);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === path),
      `${why}: details ${JSON.stringify(res.json.details)} name "${path}"`,
    );
  }
  for (const [why, raw] of [
    ["malformed JSON", '{"message": "m",'],
    ["a JSON array", '[{"message": "m"}]'],
    ["a JSON string", '"m"'],
    ["JSON null", "null"],
  ]) {
    const res = await srv.call("POST", "/api/admin/banners", { raw, headers: { ...admin, "content-type": "application/json" } });
    assertError(res, 400, "ValidationError");
    assert.ok(res.json.details.length > 0, why);
  }
  assert.equal(await stored(), before);
});

test("a body that is not application/json is 415 ContentTypeerror, and nothing is stored", async () => {
  const before = await stored();
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/json"]) {
    const res = await srv.call("POST", "/api/admin/banners", {
      raw: JSON.stringify({ message: "m" }),
      headers: { ...admin, "content-type": type },
    });
    assertError(res, 415, "ContentTypeerror");
  }
  const withCharset = await srv.call("POST", "/api/admin/banners", {
    raw: JSON.stringify({ message: "m" }),
    headers: { ...admin, "content-type": "application/json; charset=utf-8" },
  });
  assert.is(withCharset.status, 201);
  const { banners } = await stored();
  assert.equal(
    banners.map((b) => b.id),
    [...before.banners.map((b) => b.id), withCharset.json.id],
  );
});

test("without credentials every banner route is 401 AuthenticationRequired", async () => {
  const { id } = await created({ message: "m" });
  const before = await stored();
  for (const [method, path] of [
    ["GET", "/api/admin/banners"],
    ["POST", "/api/admin/banners"],
    ["PUT", `/api/admin/banners/${id}`],
    ["POST", `/api/admin/banners/${id}/on`],
    ["POST", `/api/admin/banners/${id}/off`],
    ["DELETE", `/api/admin/banners/${id}`],
  ] as const) {
    for (const headers of [{}, { authorization: "*:*.not-a-real-token" }] as Record<string, string>[]) {
      const res = await srv.call(method, path, { headers, ...(method === "GET" || method === "DELETE" ? {} : { body: { message: "x" } }) });
      assertError(res, 401, "AuthenticationRequired");
    }
  }
  assert.equal(await stored(), before);
});

test("Editor and Viewer get 403 naming UPDATE_INSTANCE_BANNERS on every write; a client token gets 403 on all", async () => {
  const { id } = await created({ message: "m" });
  const before = await stored();
  const writes = [
    ["POST", "/api/admin/banners", { message: "x" }],
    ["PUT", `/api/admin/banners/${id}`, { message: "x" }],
    ["POST", `/api/admin/banners/${id}/on`, undefined],
    ["POST", `/api/admin/banners/${id}/off`, undefined],
    ["DELETE", `/api/admin/banners/${id}`, undefined],
  ] as const;
  for (const [who, headers] of [
    ["editor", editor.headers],
    ["viewer", viewer.headers],
  ] as const) {
    for (const [method, path, body] of writes) {
      const res = await srv.call(method, path, { headers, ...(body ? { body } : {}) });
      assertError(res, 403, "NoAccessError");
      assert.is(res.json.message, 'You need the "UPDATE_INSTANCE_BANNERS" permission to perform this action.', `${who} ${method} ${path}`);
    }
    // Reading needs no permission beyond being signed in.
    assert.equal(
      (await list(headers)).map((b) => b.id),
      [id],
    );
  }
  for (const [method, path, body] of writes) {
    const res = await srv.call(method, path, { headers: client, ...(body ? { body } : {}) });
    assertError(res, 403, "NoAccessError");
    assert.is(
      res.json.message,
      'You need the "UPDATE_INSTANCE_BANNERS" permission to perform this action. A client token cannot use the admin API; use an admin token or a personal access token.',
      `client token ${method} ${path}`,
    );
  }
  const read = await srv.call("GET", "/api/admin/banners", { headers: client });
  assertError(read, 403, "NoAccessError");
  assert.is(read.json.message, "A client token cannot use the admin API; use an admin token or a personal access token.");
  // Permission comes before content type and schema (docs/errors.md#check-order).
  const early = await srv.call("POST", "/api/admin/banners", {
    raw: "not json",
    headers: { ...viewer.headers, "content-type": "text/plain" },
  });
  assertError(early, 403, "NoAccessError");
  assert.equal(await stored(), before);
});

test("an Admin user may write, and the event names them", async () => {
  const res = await create({ message: "from a person" }, adminUser.headers);
  assert.is(res.status, 201);
  const event = await lastEvent();
  assert.equal([event.type, event.created_by, event.created_by_user_id], ["banner-created", adminUser.username, adminUser.id]);
});

test("200 concurrent creates: all acknowledged, all stored, ids and createdAt in the same order", async () => {
  const eventsBefore = (await stored()).events.length;
  const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => create({ message: `banner ${i}` })));
  const acknowledged = replies.filter((r) => r.status === 201).map((r) => r.json);
  assert.equal(
    replies.filter((r) => r.status !== 201).map((r) => [r.status, r.json]),
    [],
    "every concurrent create is acknowledged",
  );
  for (const r of replies) assert.is(r.headers.location, `/api/admin/banners/${r.json.id}`);

  // Every acknowledged banner is stored, as acknowledged, and nothing else is.
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const stored200 = (await list()).slice().sort(byId);
  assert.equal(stored200, acknowledged.slice().sort(byId));

  // Sorting by createdAt gives the id order, and no two banners share a time.
  const byTime = stored200.slice().sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  assert.equal(
    byTime.map((b) => b.id),
    stored200.map((b) => b.id),
  );
  for (let i = 1; i < stored200.length; i++) assert.ok(stored200[i].createdAt > stored200[i - 1].createdAt);

  const { events } = await stored();
  assert.is(events.length - eventsBefore, 200);
  assert.ok(events.slice(eventsBefore).every((e) => e.type === "banner-created"));
});

test("GET lists every banner, newest first", async () => {
  const ids = [];
  for (const message of ["first", "second", "third"]) ids.push((await created({ message })).id);
  const banners = await list();
  assert.equal(
    banners.map((b) => b.message),
    ["third", "second", "first"],
  );
  assert.equal(
    banners.map((b) => b.id),
    ids.reverse(),
  );
  assert.equal(await list(viewer.headers), banners);
});

test("PUT: a field left out keeps its value, null clears it, a value replaces it", async () => {
  const before = await created({ message: "m", icon: "alert", link: "/x", linkText: "More", dialogTitle: "T", dialog: "D", sticky: true });
  const res = await srv.call("PUT", `/api/admin/banners/${before.id}`, {
    headers: admin,
    body: { icon: null, link: "dialog", dialogTitle: null, message: "new **text**", variant: "error" },
  });
  assert.is(res.status, 200);
  const after = { ...before, icon: null, link: "dialog", dialogTitle: null, message: "new **text**", variant: "error" };
  assert.equal(res.json, after);
  assert.equal(await list(), [after]);

  const event = await lastEvent();
  assert.is(event.type, "banner-updated");
  assert.equal(event.data, after);
  assert.equal(event.pre_data, before);

  // An empty body changes nothing.
  const same = await srv.call("PUT", `/api/admin/banners/${before.id}`, { headers: admin, body: {} });
  assert.equal([same.status, same.json], [200, after]);
});

test("PUT refuses to clear or empty the message, bad values and extra fields, changing nothing", async () => {
  const banner = await created({ message: "keep" });
  const before = await stored();
  for (const body of [
    { message: null },
    { message: "" },
    { message: "   " },
    { variant: "purple" },
    { enabled: null },
    { sticky: "yes" },
    { icon: 1 },
    { colour: "red" },
    { createdAt: "2020-01-01T00:00:00.000Z" },
  ]) {
    const res = await srv.call("PUT", `/api/admin/banners/${banner.id}`, { headers: admin, body });
    assertError(res, 400, "ValidationError");
  }
  const wrongType = await srv.call("PUT", `/api/admin/banners/${banner.id}`, {
    headers: { ...admin, "content-type": "text/plain" },
    raw: "{}",
  });
  assertError(wrongType, 415, "ContentTypeerror");
  assert.equal(await stored(), before);
});

test("on and off show and hide a banner, each recorded as banner-updated", async () => {
  const banner = await created({ message: "m" });
  const off = await srv.call("POST", `/api/admin/banners/${banner.id}/off`, { headers: admin });
  assert.equal([off.status, off.json], [200, { ...banner, enabled: false }]);
  let event = await lastEvent();
  assert.equal([event.type, (event.pre_data as any).enabled, (event.data as any).enabled], ["banner-updated", true, false]);

  const on = await srv.call("POST", `/api/admin/banners/${banner.id}/on`, { headers: admin });
  assert.equal([on.status, on.json], [200, banner]);
  event = await lastEvent();
  assert.equal([event.type, event.pre_data, event.data], ["banner-updated", { ...banner, enabled: false }, banner]);
  assert.equal(await list(), [banner]);
});

test("DELETE answers 200 with the deleted banner and records banner-deleted", async () => {
  const keep = await created({ message: "keep" });
  const gone = await created({ message: "gone", link: "dialog" });
  const res = await srv.call("DELETE", `/api/admin/banners/${gone.id}`, { headers: admin });
  assert.equal([res.status, res.json], [200, gone]);
  assert.equal(await list(), [keep]);
  const event = await lastEvent();
  assert.equal([event.type, event.data, event.pre_data], ["banner-deleted", null, gone]);

  const again = await srv.call("DELETE", `/api/admin/banners/${gone.id}`, { headers: admin });
  assertError(again, 404, "NotFoundError");
});

test("an unknown id is 404 NotFoundError; an id that is not a positive integer is 400", async () => {
  const { id } = await created({ message: "m" });
  const before = await stored();
  const unknown = [id + 1000, Number.MAX_SAFE_INTEGER];
  const malformed = ["abc", "0", "-1", "1.5", "1e3", "0x1A", "99999999999999999999", "%20"];
  for (const [method, suffix, body] of [
    ["PUT", "", { message: "x" }],
    ["POST", "/on", undefined],
    ["POST", "/off", undefined],
    ["DELETE", "", undefined],
  ] as const) {
    for (const bad of unknown) {
      const res = await srv.call(method, `/api/admin/banners/${bad}${suffix}`, { headers: admin, ...(body ? { body } : {}) });
      assertError(res, 404, "NotFoundError");
      assert.is(res.json.message, `There is no banner with id ${bad}.`);
    }
    for (const bad of malformed) {
      const res = await srv.call(method, `/api/admin/banners/${bad}${suffix}`, { headers: admin, ...(body ? { body } : {}) });
      assertError(res, 400, "ValidationError");
      assert.equal(
        res.json.details.map((d: { path: string }) => d.path),
        ["id"],
        `${method} ${bad}${suffix}`,
      );
    }
  }
  assert.equal(await stored(), before);
});

test("the OpenAPI document describes the banner routes with the named Banner schema", async () => {
  const { json } = await srv.call("GET", "/docs/openapi.json");
  const banners = json.paths["/api/admin/banners"];
  assert.ok(banners.get.responses["200"]);
  assert.equal(banners.post.responses["201"].content["application/json"].schema, { $ref: "#/components/schemas/Banner" });
  assert.ok(json.paths["/api/admin/banners/{id}"].put && json.paths["/api/admin/banners/{id}"].delete);
  assert.ok(json.paths["/api/admin/banners/{id}/on"].post && json.paths["/api/admin/banners/{id}/off"].post);
  assert.equal(json.components.schemas.Banner.required, [
    "id",
    "message",
    "enabled",
    "variant",
    "sticky",
    "icon",
    "link",
    "linkText",
    "dialogTitle",
    "dialog",
    "createdAt",
  ]);
});

test("the procedures answer over tRPC too", async () => {
  const res = await srv.call("POST", "/trpc/banners.create", { headers: admin, body: { message: "typed" } });
  assert.is(res.status, 200);
  assert.equal({ ...res.json.result.data, id: 0, createdAt: "" }, { id: 0, createdAt: "", message: "typed", ...DEFAULTS });
  const forbidden = await srv.call("POST", "/trpc/banners.create", { headers: viewer.headers, body: { message: "typed" } });
  assert.is(forbidden.status, 403);
  assert.is(forbidden.json.error.data.name, "NoAccessError");
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
