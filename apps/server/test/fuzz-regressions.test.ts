import { connect } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// Bugs the OpenAPI fuzzer found, each kept as a plain test.
const srv = await startTestServer();
const admin = await adminToken(srv);

test("a NUL character in a body, a path or a login is a 400 that stores nothing (it was a 500)", async () => {
  const before = await dbSnapshot(srv.db.kysely);
  const replies = [
    await srv.call("POST", "/api/admin/banners", { body: { message: "a\u0000b" }, headers: admin }),
    await srv.call("POST", "/api/admin/banners", { body: { message: "ok", link: "\u0000" }, headers: admin }),
    await srv.call("GET", "/api/admin/projects/default/features/%00/environments/development/variants", { headers: admin }),
    await srv.call("POST", "/api/admin/projects/default/features", { body: { name: "f", description: "\u0000" }, headers: admin }),
    await srv.call("POST", "/auth/simple/login", { body: { username: "admin\u0000", password: "unleash4all" } }),
    await srv.call("POST", `/trpc/banners.create`, { body: { message: "\u0000" }, headers: admin }),
  ];
  for (const res of replies.slice(0, 5)) {
    assertError(res, 400, "ValidationError");
    assert.match(res.json.message, /NUL character/);
  }
  assert.is(replies[5]?.status, 400, "the tRPC transport refuses it too");
  assert.equal(replies[0]?.json.details, [{ path: "message", message: "must not contain a NUL character" }]);
  const after = await dbSnapshot(srv.db.kysely);
  assert.equal(after, before);
});

test("an unpaired UTF-16 surrogate is a 400 that stores nothing (jsonb refused it as a 500); a paired one is stored", async () => {
  const viewer = await userWithRole(srv, "viewer");
  const before = await dbSnapshot(srv.db.kysely);
  const replies = [
    // As the fuzzer sent it: the escape of a lone high surrogate in the JSON text.
    await srv.call("POST", "/api/admin/user/tokens", {
      raw: '{"description":"key \\ud800","expiresAt":null}',
      headers: { ...viewer.headers, "content-type": "application/json" },
    }),
    await srv.call("POST", "/api/admin/banners", { body: { message: "ok", dialog: "x\udc00y" }, headers: admin }),
  ];
  for (const res of replies) assertError(res, 400, "ValidationError");
  assert.match(replies[1]?.json.message, /unpaired UTF-16 surrogate/);
  assert.equal(replies[1]?.json.details, [{ path: "dialog", message: "must not contain an unpaired UTF-16 surrogate" }]);
  assert.equal(await dbSnapshot(srv.db.kysely), before);
  const paired = await srv.call("POST", "/api/admin/banners", { body: { message: "rocket \ud83d\ude80" }, headers: admin });
  assert.equal([paired.status, paired.json.message], [201, "rocket \u{1F680}"]);
});

test("an id beyond its column's range is a 400 naming the bound, not a 500 (DELETE /api/admin/user/tokens/2147483648 was one)", async () => {
  const viewer = await userWithRole(srv, "viewer");
  const before = await dbSnapshot(srv.db.kysely);
  const tooBig = "2147483648";
  const replies = [
    await srv.call("DELETE", `/api/admin/user/tokens/${tooBig}`, { headers: viewer.headers }),
    await srv.call("DELETE", `/api/admin/api-tokens/${tooBig}`, { headers: admin }),
    await srv.call("DELETE", `/api/admin/user-admin/${tooBig}`, { headers: admin }),
    await srv.call("POST", `/api/admin/user-admin/${tooBig}/change-password`, {
      body: { password: "a long enough password" },
      headers: admin,
    }),
    await srv.call("GET", `/api/admin/projects/default/change-requests/${tooBig}`, { headers: admin }),
    await srv.call("PUT", `/api/admin/projects/default/change-requests/${tooBig}/state`, { body: { state: "Cancelled" }, headers: admin }),
    await srv.call("DELETE", `/api/admin/banners/${"9".repeat(20)}`, { headers: admin }),
  ];
  for (const res of replies) {
    assertError(res, 400, "ValidationError");
    assert.match(res.json.message, /whole number from 1 to/);
  }
  assert.equal(await dbSnapshot(srv.db.kysely), before);
  // The largest id the column holds is valid input: it names no record, so it is a 404.
  assertError(await srv.call("DELETE", "/api/admin/user/tokens/2147483647", { headers: viewer.headers }), 404, "NotFoundError");
});

test("a NUL character is refused only after the 401", async () => {
  assertError(await srv.call("POST", "/api/admin/banners", { body: { message: "\u0000" } }), 401, "AuthenticationRequired");
});

test("a login username longer than an e-mail can be is a 400 before it reaches the throttle", async () => {
  const res = await srv.call("POST", "/auth/simple/login", { body: { username: "u".repeat(321), password: "whatever it is" } });
  assertError(res, 400, "ValidationError");
  const streaks = await srv.db.kysely.selectFrom("login_streaks").select("account").execute();
  assert.not.ok(streaks.some((s) => s.account.length > 320));
});

test("a request Node cannot parse gets the one JSON error body, not Node's bare 400", async () => {
  const { port } = new URL(srv.url);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.end("GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
  const [head, body] = raw.split("\r\n\r\n");
  assert.match(head ?? "", /^HTTP\/1\.1 400 /);
  assert.match(head ?? "", /content-type: application\/json/);
  const json = JSON.parse(body ?? "");
  assert.equal([json.name, json.message], ["ValidationError", "The request could not be parsed as HTTP."]);
  assert.match(json.id, /^[0-9a-f-]{36}$/);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
