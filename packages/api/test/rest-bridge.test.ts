import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { NotFoundError, type Principal } from "@vexil/services";
import { request } from "undici";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { z } from "zod";
import type { Context, Logger } from "../src/context.ts";
import type { ErrorName } from "../src/error-response.ts";
import { createOpenApiDocument } from "../src/openapi-document.ts";
import { createRestBridge } from "../src/rest-bridge.ts";
import { createCallerFactory, protectedProcedure, publicProcedure, router } from "../src/trpc.ts";

// A router made for these tests: the bridge's behaviour does not depend on any real concept.
const testRouter = router({
  echo: publicProcedure
    .meta({ openapi: { method: "POST", path: "/things/{group}" }, access: "public", successStatus: 201 })
    .input(z.strictObject({ group: z.string(), name: z.string().min(1), size: z.number().int().optional() }))
    .output(z.object({ group: z.string(), name: z.string(), size: z.number().optional() }))
    .mutation(({ input }) => input),
  list: publicProcedure
    .meta({ openapi: { method: "PUT", path: "/lists/{group}" }, access: "public", bodyField: "items" })
    .input(z.object({ group: z.string(), items: z.array(z.string()) }))
    .output(z.object({ group: z.string(), count: z.number() }))
    .mutation(({ input }) => ({ group: input.group, count: input.items.length })),
  missing: publicProcedure
    .meta({ openapi: { method: "GET", path: "/missing/{name}" }, access: "public" })
    .input(z.object({ name: z.string() }))
    .output(z.object({}))
    .query(({ input }) => {
      throw new NotFoundError(`No thing named "${input.name}".`);
    }),
  broken: publicProcedure
    .meta({ openapi: { method: "GET", path: "/broken" }, access: "public" })
    .input(z.object({}))
    .output(z.object({}))
    .query(() => {
      throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
    }),
  guarded: protectedProcedure
    .meta({ openapi: { method: "POST", path: "/guarded/{environment}" }, access: "UPDATE_INSTANCE_BANNERS" })
    .input(z.strictObject({ environment: z.string(), note: z.string() }))
    .output(z.object({ ok: z.boolean() }))
    .mutation(() => ({ ok: true })),
  // Over REST its raw handler answers; the procedure answers typed callers.
  raw: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/raw/{name}" },
      access: "authenticated",
      raw: {
        serve: async (req, res, ctx, { params, body }) => {
          if (params.name === "missing") throw new NotFoundError(`No raw thing named "${params.name}".`);
          if (params.name === "broken") throw new Error("raw handler bug at /srv/raw.ts:3");
          const text = JSON.stringify({ name: params.name, body, caller: ctx.principal.kind, tag: req.headers["if-none-match"] ?? null });
          res.writeHead(299, { "content-type": "application/json; charset=utf-8", "x-raw": "yes" });
          res.end(text);
        },
        notModified: true,
      },
    })
    .input(z.strictObject({ name: z.string(), note: z.string().optional() }))
    .output(z.object({ name: z.string() }))
    .mutation(({ input }) => ({ name: input.name })),
  unavailable: publicProcedure
    .meta({ openapi: { method: "GET", path: "/unavailable" }, access: "public" })
    .input(z.object({}))
    .output(z.object({}))
    .query(() => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    }),
});

const logged: object[] = [];
const log: Logger = {
  info: () => {},
  warn: () => {},
  error: (obj) => logged.push(obj),
  child: () => log,
};
const viewer: Principal = { kind: "user", userId: 3, username: "viewer", rootRole: 3, via: "session" };
const bridge = createRestBridge({ router: testRouter, bodyLimit: 1024 });
const server = createServer((req, res) => {
  const principal = req.headers.authorization === "viewer" ? viewer : null;
  const ctx = {
    principal,
    log,
    ip: "",
    userAgent: null,
    setHeader: (n: string, v: string | string[]) => res.setHeader(n, v),
  } as unknown as Context;
  void bridge(req, res, ctx);
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method: method as "GET",
    body,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** A failure in the one error body, with the expected status and name. */
function assertError(res: { status: number; json: any }, status: number, name: ErrorName, label?: string) {
  assert.is(res.status, status, label ?? JSON.stringify(res.json));
  assert.match(res.json.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is(res.json.name, name);
  assert.type(res.json.message, "string");
  assert.ok(res.json.message.length > 0);
}

test("a success answers the declared status with the procedure's output", async () => {
  const res = await call("POST", "/things/a%20b", JSON.stringify({ name: "x", size: 3 }));
  assert.is(res.status, 201);
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
  assert.equal(res.json, { group: "a b", name: "x", size: 3 });
});

test("application/json with a charset parameter is accepted", async () => {
  const res = await call("POST", "/things/a", JSON.stringify({ name: "x" }), { "content-type": "application/json; charset=utf-8" });
  assert.is(res.status, 201);
});

test("an array body goes to the declared body field", async () => {
  const res = await call("PUT", "/lists/g", JSON.stringify(["a", "b"]));
  assert.equal([res.status, res.json], [200, { group: "g", count: 2 }]);
});

test("schema failures are 400 ValidationError with details naming each field", async () => {
  const res = await call("POST", "/things/a", JSON.stringify({ name: "", size: "big", extra: 1 }));
  assertError(res, 400, "ValidationError");
  const paths = res.json.details.map((d: { path: string }) => d.path).sort();
  assert.equal(paths, ["", "name", "size"]);
  assert.ok(res.json.details.every((d: { message: string }) => typeof d.message === "string" && d.message.length > 0));
});

test("malformed JSON is 400 ValidationError", async () => {
  const res = await call("POST", "/things/a", '{"name": ');
  assertError(res, 400, "ValidationError");
  assert.match(res.json.message, /not valid JSON/);
  assert.equal(res.json.details, [{ path: "", message: "malformed JSON" }]);
});

test("an empty body is judged by the schema: 400 naming the missing field", async () => {
  const res = await call("POST", "/things/a", "");
  assertError(res, 400, "ValidationError");
  assert.ok(res.json.details.some((d: { path: string }) => d.path === "name"));
});

test("a JSON body that is not an object is 400", async () => {
  const res = await call("POST", "/things/a", "[1]");
  assertError(res, 400, "ValidationError");
});

test("a path parameter in the body is refused rather than silently overridden", async () => {
  const res = await call("POST", "/things/a", JSON.stringify({ name: "x", group: "b" }));
  assert.is(res.status, 400);
  assert.equal(res.json.details, [{ path: "group", message: "not allowed in the body" }]);
});

test("wrong content type is 415 ContentTypeerror", async () => {
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
    const res = await call("POST", "/things/a", "name=x", { "content-type": type });
    assertError(res, 415, "ContentTypeerror", type);
  }
});

test("a body over the limit is 413 PayloadTooLarge", async () => {
  const res = await call("POST", "/things/a", JSON.stringify({ name: "x".repeat(2000) }));
  assertError(res, 413, "PayloadTooLarge");
});

test("an unknown route is 404 NotFoundError", async () => {
  const res = await call("GET", "/nowhere");
  assertError(res, 404, "NotFoundError");
});

test("a known path with the wrong method is 405 with Allow", async () => {
  const res = await call("DELETE", "/things/a");
  assertError(res, 405, "MethodNotAllowed");
  assert.is(res.headers.allow, "POST");
});

test("broken URL encoding in a path parameter is 400", async () => {
  const res = await call("GET", "/missing/%E0%A4%A");
  assertError(res, 400, "ValidationError");
});

test("a domain error keeps its name and message", async () => {
  const res = await call("GET", "/missing/zed");
  assertError(res, 404, "NotFoundError");
  assert.is(res.json.message, 'No thing named "zed".');
});

test("an unexpected error is 500 with nothing internal, logged under the same id", async () => {
  logged.length = 0;
  const res = await call("GET", "/broken");
  assertError(res, 500, "InternalError");
  assert.equal(Object.keys(res.json).sort(), ["id", "message", "name"]);
  assert.not.match(res.json.message, /secret_table|srv|at /);
  assert.equal(logged.length, 1);
  const entry = logged[0] as { errorId: string; err: Error };
  assert.is(entry.errorId, res.json.id);
  assert.match(entry.err.message, /secret_table/);
});

test("an unreachable database is 503 ServiceUnavailable with Retry-After", async () => {
  const res = await call("GET", "/unavailable");
  assertError(res, 503, "ServiceUnavailable");
  assert.is(res.headers["retry-after"], "5");
});

test("401 comes before 415 and 400; 403 names the permission and environment", async () => {
  const anonymous = await call("POST", "/guarded/production", "not json", { "content-type": "text/plain" });
  assertError(anonymous, 401, "AuthenticationRequired");
  const forbidden = await call("POST", "/guarded/production", "not json", { "content-type": "text/plain", authorization: "viewer" });
  assertError(forbidden, 403, "NoAccessError");
  assert.is(
    forbidden.json.message,
    'You need the "UPDATE_INSTANCE_BANNERS" permission to perform this action in the "production" environment.',
  );
});

test("a raw route: its handler answers with the decoded params and the read body, after the bridge's checks", async () => {
  const res = await call("POST", "/raw/a%20b", JSON.stringify({ note: "n" }), { authorization: "viewer", "if-none-match": '"x"' });
  assert.is(res.status, 299);
  assert.is(res.headers["x-raw"], "yes");
  assert.equal(res.json, { name: "a b", body: { note: "n" }, caller: "user", tag: '"x"' });
  const empty = await call("POST", "/raw/a", undefined, { authorization: "viewer" });
  assert.equal([empty.status, empty.json.body], [299, undefined]);
});

test("a raw route is checked in the contract's order before its handler runs: 401, 415, 413, 400, 405", async () => {
  assertError(await call("POST", "/raw/a", "{}"), 401, "AuthenticationRequired");
  assertError(await call("POST", "/raw/a", "x", { authorization: "viewer", "content-type": "text/plain" }), 415, "ContentTypeerror");
  assertError(await call("POST", "/raw/a", JSON.stringify("x".repeat(2000)), { authorization: "viewer" }), 413, "PayloadTooLarge");
  assertError(await call("POST", "/raw/a", "{", { authorization: "viewer" }), 400, "ValidationError");
  const wrongMethod = await call("GET", "/raw/a", undefined, { authorization: "viewer" });
  assertError(wrongMethod, 405, "MethodNotAllowed");
  assert.is(wrongMethod.headers.allow, "POST");
});

test("what a raw handler throws is the one error body: a rule's failure as itself, a bug as a logged 500", async () => {
  const missing = await call("POST", "/raw/missing", "{}", { authorization: "viewer" });
  assertError(missing, 404, "NotFoundError");
  assert.is(missing.json.message, 'No raw thing named "missing".');
  logged.length = 0;
  const broken = await call("POST", "/raw/broken", "{}", { authorization: "viewer" });
  assertError(broken, 500, "InternalError");
  assert.not.match(broken.json.message, /srv/);
  assert.is((logged[0] as { errorId: string }).errorId, broken.json.id);
});

test("a raw route's procedure still answers typed callers, and the document says what the raw handler adds", async () => {
  const caller = createCallerFactory(testRouter)({ principal: viewer, log } as unknown as Context);
  assert.equal(await caller.raw({ name: "t" }), { name: "t" });
  const doc = createOpenApiDocument(testRouter, { version: "test" }) as any;
  assert.ok(doc.paths["/raw/{name}"].post.responses["304"]);
  assert.not.ok(doc.paths["/things/{group}"].post.responses["304"]);
});

test("a public route cannot have a raw handler: there would be no caller to hand it", () => {
  const publicRaw = router({
    open: publicProcedure
      .meta({ openapi: { method: "GET", path: "/open" }, access: "public", raw: { serve: async () => {} } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => ({})),
  });
  assert.throws(() => createRestBridge({ router: publicRaw, bodyLimit: 1024 }), /cannot be public/);
});

test("the OpenAPI document carries the declared success codes and one error schema", () => {
  const doc = createOpenApiDocument(testRouter, { version: "test" }) as any;
  assert.is(doc.openapi, "3.1.0");
  const echo = doc.paths["/things/{group}"].post;
  assert.ok(echo.responses["201"]);
  assert.not.ok(echo.responses["200"]);
  for (const [code, response] of Object.entries<any>(echo.responses)) {
    if (Number(code) >= 400) assert.equal(response.content["application/json"].schema, { $ref: "#/components/schemas/Error" });
  }
  assert.equal(doc.components.schemas.Error.required, ["id", "name", "message"]);
});

test.after(() => {
  server.close();
});

test.run();
