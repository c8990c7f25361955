import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { createApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { until } from "./support/eventually.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer();
const { kysely: db } = srv.db;
const admin = await adminToken(srv);

async function token(type: "client" | "frontend", projects: string[], environment: string): Promise<Record<string, string>> {
  const created = await createApiToken(db, null, {
    tokenName: `${type}-${projects.join("+")}-${environment}`,
    type,
    projects,
    environment,
  });
  return { authorization: created.secret };
}

async function setup(method: string, path: string, body?: unknown): Promise<any> {
  const res = await srv.call(method, path, { body, headers: admin });
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

const env = (feature: string, environment = "development", project = "default") =>
  `/api/admin/projects/${project}/features/${feature}/environments/${environment}`;
await setup("POST", "/api/admin/projects", { id: "shop", name: "Shop" });
await setup("POST", "/api/admin/projects/shop/environments", { environment: "development" });
await setup("POST", "/api/admin/projects/default/features", { name: "web.checkout", description: "New checkout", impressionData: true });
await setup("POST", "/api/admin/projects/default/features", { name: "web.search" });
await setup("POST", "/api/admin/projects/shop/features", { name: "shop.cart" });
await setup("POST", `${env("web.checkout")}/on`);
await setup("POST", `${env("shop.cart", "development", "shop")}/on`);
const segment = await setup("POST", "/api/admin/segments", {
  name: "beta",
  constraints: [{ contextName: "userId", operator: "IN", values: ["7"] }],
});
const strategy = await setup("POST", `${env("web.checkout")}/strategies`, {
  name: "flexibleRollout",
  parameters: { rollout: "50", stickiness: "userId", groupId: "web.checkout" },
  constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
  segments: [segment.id],
});
await setup("POST", `${env("web.checkout")}/strategies`, { name: "default", disabled: true });
await setup("PUT", `${env("web.checkout")}/variants`, [{ name: "blue" }]);
await setup("POST", "/api/admin/projects/default/features/web.checkout/dependencies", { feature: "web.search", enabled: false });

const allDev = await token("client", ["*"], "development");
const NEW_SDK = { "unleash-client-spec": "5.2.0" };
const features = (headers: Record<string, string>, query = "") => srv.call("GET", `/api/client/features${query}`, { headers });

test("a client token of all projects gets every feature of its environment, the spec's shape, an ETag and meta", async () => {
  const res = await features({ ...allDev, ...NEW_SDK });
  assert.is(res.status, 200, JSON.stringify(res.json));
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
  assert.equal(
    res.json.features.map((f: { name: string }) => f.name),
    ["shop.cart", "web.checkout", "web.search"],
  );
  assert.is(res.json.version, 2);
  assert.equal(res.json.meta.etag, res.headers.etag);
  assert.type(res.json.meta.revisionId, "number");
  assert.equal(res.json.query, { environment: "development", inlineSegmentConstraints: false });
  assert.equal(res.json.segments, [
    {
      id: segment.id,
      name: "beta",
      constraints: [{ contextName: "userId", operator: "IN", values: ["7"], inverted: false, caseInsensitive: false }],
    },
  ]);
  const checkout = res.json.features.find((f: { name: string }) => f.name === "web.checkout");
  assert.equal(checkout, {
    name: "web.checkout",
    type: "release",
    description: "New checkout",
    project: "default",
    enabled: true,
    stale: false,
    impressionData: true,
    strategies: [{ ...strategy, title: undefined, disabled: undefined }].map(({ title: _t, disabled: _d, ...s }) => s),
    variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default", overrides: [] }],
    dependencies: [{ feature: "web.search", enabled: false }],
  });
});

test("an SDK older than spec 4.2.0 gets each segment's constraints inlined and no segments", async () => {
  const res = await features({ ...allDev, "unleash-client-spec": "4.1.0" });
  assert.is(res.json.segments, undefined);
  const [strategy] = res.json.features.find((f: { name: string }) => f.name === "web.checkout").strategies;
  assert.is(strategy.segments, undefined);
  assert.equal(
    strategy.constraints.map((c: { contextName: string }) => c.contextName),
    ["appName", "userId"],
  );
  assert.is(res.json.query.inlineSegmentConstraints, true);
});

test("project and namePrefix narrow the list; a token of one project sees only it", async () => {
  assert.equal(
    (await features(allDev, "?project=shop")).json.features.map((f: { name: string }) => f.name),
    ["shop.cart"],
  );
  assert.equal(
    (await features(allDev, "?namePrefix=web.s")).json.features.map((f: { name: string }) => f.name),
    ["web.search"],
  );
  const shopOnly = await token("client", ["shop"], "development");
  assert.equal(
    (await features(shopOnly)).json.features.map((f: { name: string }) => f.name),
    ["shop.cart"],
  );
  assert.equal((await features(shopOnly, "?project=default")).json.features, []);
  const several = await token("client", ["shop", "default"], "development");
  assert.is((await features(several)).json.features.length, 3);
});

test("the token fixes the environment: production serves its own switches and strategies", async () => {
  const prod = await token("client", ["*"], "production");
  const res = await features(prod);
  const checkout = res.json.features.find((f: { name: string }) => f.name === "web.checkout");
  assert.equal([checkout.enabled, checkout.strategies, checkout.variants], [false, [], []]);
  assert.is(res.json.query.environment, "production");
});

test("a matching If-None-Match is a 304 with no body; a change gives a new ETag", async () => {
  const first = await features(allDev);
  const etag = first.headers.etag as string;
  const unchanged = await features({ ...allDev, "if-none-match": etag });
  assert.equal([unchanged.status, unchanged.json, unchanged.headers.etag], [304, undefined, etag]);
  await setup("POST", `${env("web.search")}/on`);
  await until(async () => (await features({ ...allDev, "if-none-match": etag })).status === 200, "the change to be served");
  const changed = await features(allDev);
  assert.not.equal(changed.headers.etag, etag);
  assert.is(changed.json.features.find((f: { name: string }) => f.name === "web.search").enabled, true);
});

test("one feature by name, 404 outside the token's scope", async () => {
  const res = await srv.call("GET", "/api/client/features/web.checkout", { headers: allDev });
  assert.equal([res.status, res.json.name, res.json.strategies[0].constraints.length], [200, "web.checkout", 2]);
  const shopOnly = await token("client", ["shop"], "development");
  assertError(await srv.call("GET", "/api/client/features/web.checkout", { headers: shopOnly }), 404, "NotFoundError");
  assertError(await srv.call("GET", "/api/client/features/ghost", { headers: allDev }), 404, "NotFoundError");
});

test("no token is 401; a frontend token and a user are 403; an admin token is served", async () => {
  assertError(await features({}), 401, "AuthenticationRequired");
  assertError(await features(await token("frontend", ["*"], "development")), 403, "NoAccessError");
  assertError(await features((await userWithRole(srv, "admin")).headers), 403, "NoAccessError");
  assertError(await srv.call("GET", "/api/client/features/web.checkout", { headers: {} }), 401, "AuthenticationRequired");
  assert.is((await features(admin)).status, 200);
});

test("a client token is still refused by the admin API", async () => {
  assertError(await srv.call("GET", "/api/admin/projects", { headers: allDev }), 403, "NoAccessError");
});

/** The raw bytes and headers of a GET, with no decoding on the way (fetch would gunzip). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(new URL(path, srv.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

test("an SDK that accepts gzip gets the same bytes gzipped, with the same ETag; q=0 or no Accept-Encoding gets them plain", async () => {
  await setup("POST", "/api/admin/projects", { id: "bulk", name: "Bulk" });
  await setup("POST", "/api/admin/projects/bulk/environments", { environment: "development" });
  for (let i = 0; i < 12; i++)
    await setup("POST", "/api/admin/projects/bulk/features", {
      name: `bulk.flag-${i}`,
      description: `A flag of the bulk project, number ${i}, long enough to matter.`,
    });
  const bulk = await token("client", ["bulk"], "development");
  const plain = await rawGet("/api/client/features", bulk);
  assert.is(plain.status, 200);
  assert.is(plain.headers["content-encoding"], undefined);
  assert.ok(plain.body.length >= 1_024, `the body is ${plain.body.length} bytes, enough to compress`);
  assert.is(plain.headers.vary, "accept-encoding");

  const zipped = await rawGet("/api/client/features", { ...bulk, "accept-encoding": "gzip,deflate" });
  assert.is(zipped.status, 200);
  assert.is(zipped.headers["content-encoding"], "gzip");
  assert.is(zipped.headers.etag, plain.headers.etag);
  assert.is(Number(zipped.headers["content-length"]), zipped.body.length);
  assert.ok(zipped.body.length < plain.body.length);
  assert.ok(gunzipSync(zipped.body).equals(plain.body), "gunzipped, the same bytes as the plain answer");

  const refused = await rawGet("/api/client/features", { ...bulk, "accept-encoding": "gzip;q=0, identity" });
  assert.is(refused.headers["content-encoding"], undefined);
  assert.ok(refused.body.equals(plain.body));
  const notModified = await rawGet("/api/client/features", {
    ...bulk,
    "accept-encoding": "gzip",
    "if-none-match": String(plain.headers.etag),
  });
  assert.is(notModified.status, 304);
  assert.is(notModified.body.length, 0);
});

test.after(() => srv.close());
test.run();
