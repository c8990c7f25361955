import type { AddressInfo } from "node:net";
import { connectDatabase } from "@vexil/db";
import { createApiToken } from "@vexil/services";
import pino from "pino";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { until } from "./support/eventually.ts";
import { adminToken, clientToken, userWithRole } from "./support/principals.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { callUrl, startTestServer } from "./support/test-server.ts";

// The test client is the trusted proxy, so X-Forwarded-For stands for a browser's address.
const srv = await startTestServer({ TRUST_PROXY: "127.0.0.1", METRICS_FLUSH_INTERVAL_MS: "0" });
const { kysely: db } = srv.db;
const admin = await adminToken(srv);

async function frontendToken(environment: string, projects = ["default"]): Promise<Record<string, string>> {
  const created = await createApiToken(db, null, { tokenName: `frontend-${environment}`, type: "frontend", projects, environment });
  return { authorization: created.secret };
}

async function setup(method: string, path: string, body?: unknown): Promise<any> {
  const res = await srv.call(method, path, { body, headers: admin });
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

const env = (feature: string, environment = "development") => `/api/admin/projects/default/features/${feature}/environments/${environment}`;
for (const name of ["fe.banner", "fe.beta", "fe.office", "fe.plan", "fe.off", "fe.prod"])
  await setup("POST", "/api/admin/projects/default/features", { name });
await setup("PUT", "/api/admin/projects/default/features/fe.banner", { impressionData: true });
for (const name of ["fe.banner", "fe.beta", "fe.office", "fe.plan"]) await setup("POST", `${env(name)}/on`);
await setup("POST", `${env("fe.prod", "production")}/on`);
await setup("POST", `${env("fe.banner")}/strategies`, { name: "default" });
await setup("PUT", `${env("fe.banner")}/variants`, [{ name: "blue", payload: { type: "json", value: '{"color":"#00f"}' } }]);
await setup("POST", `${env("fe.beta")}/strategies`, { name: "userWithId", parameters: { userIds: "alice,bob" } });
await setup("POST", `${env("fe.office")}/strategies`, { name: "remoteAddress", parameters: { IPs: "192.0.2.7" } });
await setup("POST", `${env("fe.plan")}/strategies`, {
  name: "default",
  constraints: [{ contextName: "plan", operator: "IN", values: ["pro"] }],
});
await setup("POST", `${env("fe.off")}/strategies`, { name: "default" });

const dev = await frontendToken("development");
const prod = await frontendToken("production");
const away = { "x-forwarded-for": "198.51.100.1" };
const names = (res: { json: { toggles: { name: string }[] } }) => res.json.toggles.map((t) => t.name);
const get = (query: string, headers = dev) => srv.call("GET", `/api/frontend${query}`, { headers: { ...away, ...headers } });

test("GET answers only the flags on for the context, each with its variant, as Unleash's frontend API does", async () => {
  const res = await get("");
  assert.is(res.status, 200);
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
  assert.equal(res.json, {
    toggles: [
      {
        name: "fe.banner",
        enabled: true,
        variant: { name: "blue", enabled: true, payload: { type: "json", value: '{"color":"#00f"}' }, feature_enabled: true },
        impressionData: true,
      },
    ],
  });
  const alice = await get("?userId=alice&properties%5Bplan%5D=pro&appName=web&environment=default");
  assert.equal(names(alice), ["fe.banner", "fe.beta", "fe.plan"]);
  assert.equal(alice.json.toggles[1], {
    name: "fe.beta",
    enabled: true,
    variant: { name: "disabled", enabled: false, feature_enabled: true },
    impressionData: false,
  });
  // A name that is no context field is a property, as in Unleash.
  assert.equal(names(await get("?plan=pro")), ["fe.banner", "fe.plan"]);
  assert.equal(names(await get("?userId=carol&properties[plan]=free")), ["fe.banner"]);
});

test("POST {context} answers what GET answers for the same context", async () => {
  const res = await srv.call("POST", "/api/frontend", {
    headers: { ...away, ...dev },
    body: { context: { userId: "bob", properties: { plan: "pro" } } },
  });
  assert.is(res.status, 200);
  assert.equal(res.json, (await get("?userId=bob&properties[plan]=pro")).json);
  assert.equal(names(await srv.call("POST", "/api/frontend", { headers: { ...away, ...dev }, body: {} })), ["fe.banner"]);
  // A number in a POSTed property means its text.
  const numeric = await srv.call("POST", "/api/frontend", {
    headers: { ...away, ...dev },
    body: { context: { properties: { plan: "pro", seats: 3 } } },
  });
  assert.equal(names(numeric), ["fe.banner", "fe.plan"]);
});

test("without a remoteAddress the request's address is the context's; one that is given wins", async () => {
  assert.equal(names(await get("", { ...dev, "x-forwarded-for": "192.0.2.7" })), ["fe.banner", "fe.office"]);
  assert.equal(names(await get("?remoteAddress=192.0.2.7")), ["fe.banner", "fe.office"]);
  assert.equal(names(await get("?remoteAddress=10.1.1.1", { ...dev, "x-forwarded-for": "192.0.2.7" })), ["fe.banner"]);
});

test("a token is served its own environment and projects; an admin token is served development", async () => {
  assert.equal(names(await get("", prod)), ["fe.prod"]);
  // The context's environment is a context field for constraints: it never switches what the token is served.
  assert.equal(names(await get("?environment=development", prod)), ["fe.prod"]);
  assert.equal(
    names(await srv.call("POST", "/api/frontend", { headers: { ...away, ...prod }, body: { context: { environment: "development" } } })),
    ["fe.prod"],
  );
  assert.equal(names(await get("?userId=alice", admin)), ["fe.banner", "fe.beta"]);
  await setup("POST", "/api/admin/projects", { id: "elsewhere", name: "Elsewhere" });
  const otherProject = await frontendToken("development", ["elsewhere"]);
  assert.equal(names(await get("", otherProject)), []);
});

test("who may call it: none is 401, a client token, a user and a personal token are 403", async () => {
  assertError(await get("", {}), 401, "AuthenticationRequired");
  assertError(await get("", { authorization: "default:development.not-a-real-token" }), 401, "AuthenticationRequired");
  const client = await get("", await clientToken(srv));
  assertError(client, 403, "NoAccessError");
  assert.match(client.json.message, /frontend token/);
  const viewer = await userWithRole(srv, "viewer");
  assertError(await get("", viewer.headers), 403, "NoAccessError");
  assertError(await srv.call("POST", "/api/frontend", { headers: await clientToken(srv), body: { context: {} } }), 403, "NoAccessError");
  // Refused before its body is read: a wrong token with a bad body is still 403.
  assertError(await srv.call("POST", "/api/frontend", { headers: await clientToken(srv), raw: "{" }), 403, "NoAccessError");
});

test("malformed contexts are a 400 naming the field, and change nothing", async () => {
  const before = (await srv.call("GET", "/api/admin/events", { headers: admin })).json;
  const cases: [string, string][] = [
    ["?userId=a&userId=b", "userId"],
    ["?properties[plan]=a&properties[plan]=b", "properties.plan"],
    ["?plan=a&properties[plan]=b", "properties.plan"],
    ["?properties[a][b]=c", "properties[a][b]"],
    ["?properties[]=c", "properties[]"],
    ["?currentTime=yesterday", "currentTime"],
    [`?userId=${"x".repeat(1001)}`, "userId"],
    [`?${Array.from({ length: 101 }, (_, i) => `p${i}=1`).join("&")}`, "properties"],
  ];
  for (const [query, path] of cases) {
    const res = await get(query);
    assertError(res, 400, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === path),
      `${query}: ${JSON.stringify(res.json.details)}`,
    );
  }
  const post = (body: Record<string, unknown>) => srv.call("POST", "/api/frontend", { headers: { ...away, ...dev }, ...body });
  const bodies: [Record<string, unknown>, number, string, string?][] = [
    [{ raw: "{", headers: { ...dev, "content-type": "application/json" } }, 400, "ValidationError"],
    [{ body: { context: { userId: "a" }, extra: 1 } }, 400, "ValidationError", ""],
    [{ body: { context: "userId=a" } }, 400, "ValidationError", "context"],
    [{ body: { context: { favourite: "x" } } }, 400, "ValidationError", "context"],
    [{ body: { context: { userId: 7 } } }, 400, "ValidationError", "context.userId"],
    [{ body: { context: { properties: { plan: { tier: "pro" } } } } }, 400, "ValidationError", "context.properties.plan"],
    [{ body: { context: { currentTime: "soon" } } }, 400, "ValidationError", "context.currentTime"],
    [{ body: [] }, 400, "ValidationError"],
    [{ raw: "userId=a", headers: { ...dev, "content-type": "application/x-www-form-urlencoded" } }, 415, "ContentTypeerror"],
    [
      { raw: JSON.stringify({ context: { userId: "x".repeat(300_000) } }), headers: { ...dev, "content-type": "application/json" } },
      413,
      "PayloadTooLarge",
    ],
  ];
  for (const [options, status, name, path] of bodies) {
    const res = await post(options);
    assertError(res, status, name as never);
    if (path !== undefined)
      assert.ok(
        res.json.details.some((d: { path: string }) => d.path === path),
        `${JSON.stringify(options).slice(0, 80)}: ${JSON.stringify(res.json.details)}`,
      );
  }
  assert.equal((await srv.call("GET", "/api/admin/events", { headers: admin })).json, before);
});

test("every 200 has an ETag; a matching If-None-Match is a 304 until a flag changes", async () => {
  const first = await get("?userId=alice");
  const etag = first.headers.etag as string;
  assert.match(etag, /^"[\w-]+"$/);
  const again = await get("?userId=alice", { ...dev, "if-none-match": etag });
  assert.equal([again.status, again.json, again.headers.etag], [304, undefined, etag]);
  // Another context is another answer.
  assert.is((await get("?userId=carol", { ...dev, "if-none-match": etag })).status, 200);
  await setup("POST", `${env("fe.off")}/on`);
  // The change reaches the snapshot when the database's notice does.
  await until(async () => (await get("?userId=alice", { ...dev, "if-none-match": etag })).status === 200, "the changed flag to be served");
  const changed = await get("?userId=alice", { ...dev, "if-none-match": etag });
  assert.ok(names(changed).includes("fe.off"));
  assert.is.not(changed.headers.etag, etag);
  await setup("POST", `${env("fe.off")}/off`);
});

test("a flag switched through another instance reaches this one's frontend API (Postgres: two instances, one database)", async () => {
  if (!srv.db.databaseUrl) return;
  const other = createApp({
    config: loadConfig({ SCHEDULER_INTERVAL_MS: "0" }),
    db: connectDatabase({ databaseUrl: srv.db.databaseUrl, poolSize: 2 }),
    log: pino({ level: "silent" }),
  });
  await new Promise<void>((resolve) => other.server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
    assert.ok(!names(await get("")).includes("fe.off"));
    assert.is((await callUrl(url, "POST", `${env("fe.off")}/on`, { headers: admin })).status, 200);
    await until(async () => names(await get("")).includes("fe.off"), "the other instance's change to be served here");
    assert.is((await callUrl(url, "POST", `${env("fe.off")}/off`, { headers: admin })).status, 200);
    await until(async () => !names(await get("")).includes("fe.off"), "the other instance's change back to be served here");
  } finally {
    await other.close();
  }
});

test("CORS: a listed origin's preflight allows what unleash-proxy-client sends, and its page may read the ETag", async () => {
  const origin = "https://app.example.com";
  const own = await startTestServer({ CORS_ORIGINS: origin }, { db: srv.db });
  try {
    const requested = "authorization, content-type, if-none-match, unleash-appname, unleash-connection-id, unleash-sdk, x-unleash-team";
    const preflight = await own.call("OPTIONS", "/api/frontend", {
      headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": requested },
    });
    assert.is(preflight.status, 204);
    assert.is(preflight.headers["access-control-allow-origin"], origin);
    const allowed = String(preflight.headers["access-control-allow-headers"]).split(", ");
    for (const header of requested.split(", ")) assert.ok(allowed.includes(header), header);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
    const res = await own.call("GET", "/api/frontend", { headers: { ...dev, origin } });
    assert.equal(
      [res.status, res.headers["access-control-allow-origin"], res.headers["access-control-expose-headers"]],
      [200, origin, "etag"],
    );
    const other = await own.call("OPTIONS", "/api/frontend", {
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    assert.is(other.headers["access-control-allow-origin"], undefined);
    assert.is.not(other.status, 204);
  } finally {
    await own.app.server.close();
    await own.app.deps.hasher.close();
    await own.app.scheduler.stop();
  }
});

test("the proxy client's metrics are summed for the token's environment, and an admin reads them", async () => {
  const now = new Date().toISOString();
  const report = {
    appName: "shop-web",
    instanceId: "browser",
    bucket: { start: now, stop: now, toggles: { "fe.banner": { yes: 3, no: 1, variants: { blue: 3 } } } },
    impactMetrics: [],
  };
  const res = await srv.call("POST", "/api/frontend/client/metrics", { headers: dev, body: report });
  assert.equal([res.status, res.json], [200, {}]);
  assertError(
    await srv.call("POST", "/api/frontend/client/metrics", { headers: await clientToken(srv), body: report }),
    403,
    "NoAccessError",
  );
  assertError(
    await srv.call("POST", "/api/frontend/client/metrics", {
      headers: dev,
      body: { ...report, bucket: { ...report.bucket, toggles: { "fe.banner": { yes: "3" } } } },
    }),
    400,
    "ValidationError",
  );
  await srv.app.metricsFlush.tick();
  const raw = (await srv.call("GET", "/api/admin/client-metrics/features/fe.banner/raw", { headers: admin })).json;
  const rows = raw.data.filter((r: { appName: string }) => r.appName === "shop-web");
  assert.equal(
    rows.map((r: Record<string, unknown>) => [r.environment, r.yes, r.no, r.variants]),
    [["development", 3, 1, { blue: 3 }]],
  );
});

test("the typed transport serves the same answer: frontend.features and frontend.evaluate over /trpc", async () => {
  const query = await srv.call("GET", `/trpc/frontend.features?input=${encodeURIComponent(JSON.stringify({ userId: "alice" }))}`, {
    headers: { ...away, ...dev },
  });
  assert.is(query.status, 200);
  assert.equal(query.json.result.data, (await get("?userId=alice")).json);
  const context = { userId: "alice", properties: { plan: "pro" } };
  const mutation = await srv.call("POST", "/trpc/frontend.evaluate", { headers: { ...away, ...dev }, body: { context } });
  assert.is(mutation.status, 200);
  assert.equal(mutation.json.result.data, (await get("?userId=alice&properties[plan]=pro")).json);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
