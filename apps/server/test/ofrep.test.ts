import { createApiToken, deleteApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, frontendToken, userWithRole } from "./support/principals.ts";
import { nextEvent, openSse } from "./support/sse-stream.ts";
import { startTestServer } from "./support/test-server.ts";

// OFREP (docs/ofrep.md#ofrep) over HTTP: the mapping, every error body and code, ETags, the event stream.
const srv = await startTestServer({ TRUST_PROXY: "127.0.0.1" });
const admin = await adminToken(srv);
const client = await clientToken(srv);
const frontend = await frontendToken(srv);
const FLAG = "/ofrep/v1/evaluate/flags";

async function setup(method: string, path: string, body?: unknown): Promise<void> {
  const res = await srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
}
const env = (name: string, project = "default") => `/api/admin/projects/${project}/features/${name}/environments/development`;
async function flag(name: string, { on = true, project = "default" } = {}): Promise<void> {
  await setup("POST", `/api/admin/projects/${project}/features`, { name });
  if (on) await setup("POST", `${env(name, project)}/on`);
}

// Flags of every kind the mapping tells apart.
await flag("of.static");
await flag("of.targeted");
await setup("POST", `${env("of.targeted")}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
await flag("of.off", { on: false });
await flag("of.string");
await setup("PUT", `${env("of.string")}/variants`, [{ name: "blue", weight: 1000, payload: { type: "string", value: "navy" } }]);
await flag("of.number");
await setup("PUT", `${env("of.number")}/variants`, [{ name: "n", weight: 1000, payload: { type: "number", value: "42.5" } }]);
await flag("of.json");
await setup("PUT", `${env("of.json")}/variants`, [
  { name: "j", weight: 1000, payload: { type: "json", value: '{"color":"#00f","n":[1]}' } },
]);
await flag("of.bare");
await setup("PUT", `${env("of.bare")}/variants`, [{ name: "plain", weight: 1000 }]);
await flag("of.strategy-variant");
await setup("POST", `${env("of.strategy-variant")}/strategies`, {
  name: "flexibleRollout",
  parameters: { rollout: "100", stickiness: "default", groupId: "g" },
  variants: [{ name: "from-strategy", weight: 1000, weightType: "variable", stickiness: "default" }],
});
await flag("of.variants-off", { on: false });
await setup("PUT", `${env("of.variants-off")}/variants`, [{ name: "x", weight: 1000 }]);
await flag("of.variants-unmatched");
await setup("POST", `${env("of.variants-unmatched")}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
await setup("PUT", `${env("of.variants-unmatched")}/variants`, [{ name: "y", weight: 1000 }]);
await flag("of.by-address");
await setup("POST", `${env("of.by-address")}/strategies`, { name: "remoteAddress", parameters: { IPs: "192.0.2.10" } });
await flag("of.by-property");
await setup("POST", `${env("of.by-property")}/strategies`, {
  name: "default",
  constraints: [{ contextName: "plan", operator: "IN", values: ["gold", "42"] }],
});
// A flag in another project: outside the SDK tokens' scope.
await setup("POST", "/api/admin/projects", { id: "elsewhere", name: "Elsewhere" });
await setup("POST", "/api/admin/projects/elsewhere/environments", { environment: "development" });
await flag("of.elsewhere", { project: "elsewhere" });

const evaluate = (key: string, context: unknown, headers: Record<string, string> = client) =>
  srv.call("POST", `${FLAG}/${encodeURIComponent(key)}`, { headers, body: { context } });

test("a flag without variants answers a boolean: STATIC without strategies, TARGETING_MATCH when one held, DEFAULT false when none did", async () => {
  assert.equal((await evaluate("of.static", {})).json, { key: "of.static", reason: "STATIC", value: true, metadata: { enabled: true } });
  assert.equal((await evaluate("of.targeted", { targetingKey: "alice" })).json, {
    key: "of.targeted",
    reason: "TARGETING_MATCH",
    value: true,
    metadata: { enabled: true },
  });
  assert.equal((await evaluate("of.targeted", { targetingKey: "bob" })).json, {
    key: "of.targeted",
    reason: "DEFAULT",
    value: false,
    metadata: { enabled: false },
  });
});

test("a flag switched off answers DISABLED: false without variants, no value with them", async () => {
  const off = await evaluate("of.off", { targetingKey: "alice" });
  assert.is(off.status, 200);
  assert.equal(off.json, { key: "of.off", reason: "DISABLED", value: false, metadata: { enabled: false } });
  const variantsOff = await evaluate("of.variants-off", { targetingKey: "alice" });
  assert.is(variantsOff.status, 200);
  assert.equal(variantsOff.json, { key: "of.variants-off", reason: "DISABLED", metadata: { enabled: false } });
});

test("a flag with variants answers its variant, the payload by its type, or the name without one", async () => {
  const value = async (key: string) => {
    const { json } = await evaluate(key, { targetingKey: "u1" });
    return [json.variant, json.value, json.reason, json.metadata.enabled];
  };
  assert.equal(await value("of.string"), ["blue", "navy", "SPLIT", true]);
  assert.equal(await value("of.number"), ["n", 42.5, "SPLIT", true]);
  assert.equal(await value("of.json"), ["j", { color: "#00f", n: [1] }, "SPLIT", true]);
  assert.equal(await value("of.bare"), ["plain", "plain", "SPLIT", true]);
  assert.equal(await value("of.strategy-variant"), ["from-strategy", "from-strategy", "TARGETING_MATCH", true]);
  // On, but no strategy holds for this context: no variant, no value (the code's default).
  assert.equal((await evaluate("of.variants-unmatched", { targetingKey: "bob" })).json, {
    key: "of.variants-unmatched",
    reason: "DEFAULT",
    metadata: { enabled: false },
  });
});

test("every key but the Unleash context fields is a property, its value as text", async () => {
  assert.is((await evaluate("of.by-property", { plan: "gold" })).json.value, true);
  assert.is((await evaluate("of.by-property", { plan: 42 })).json.value, true);
  assert.is((await evaluate("of.by-property", { plan: "silver" })).json.value, false);
  assert.is((await evaluate("of.by-property", { plan: null })).json.value, false);
});

test("a frontend token's missing remoteAddress is the caller's; a client token's stays missing", async () => {
  const browser = { ...frontend, "x-forwarded-for": "192.0.2.10" };
  assert.is((await evaluate("of.by-address", {}, browser)).json.value, true);
  assert.is((await evaluate("of.by-address", { remoteAddress: "198.51.100.1" }, browser)).json.value, false);
  assert.is((await evaluate("of.by-address", {}, { ...client, "x-forwarded-for": "192.0.2.10" })).json.value, false);
  assert.is((await evaluate("of.by-address", { remoteAddress: "192.0.2.10" })).json.value, true);
});

test("the token goes in Authorization (raw or Bearer) or in X-API-Key", async () => {
  const secret = client.authorization as string;
  const ways: Record<string, string>[] = [{ authorization: secret }, { authorization: `Bearer ${secret}` }, { "x-api-key": secret }];
  for (const headers of ways) {
    assert.is((await evaluate("of.static", {}, headers)).status, 200, JSON.stringify(Object.keys(headers)));
  }
});

test("a flag outside the token's scope, or none at all, is FLAG_NOT_FOUND", async () => {
  for (const key of ["of.elsewhere", "no-such-flag"]) {
    const res = await evaluate(key, {});
    assert.is(res.status, 404);
    assert.equal(res.json, { key, errorCode: "FLAG_NOT_FOUND", errorDetails: `There is no flag "${key}" for this token.` });
  }
});

test("a repeated single-flag request gets the flag's current answer: after a change, per caller, and drawn anew under random stickiness", async () => {
  const ask = async (key: string, headers: Record<string, string> = client) =>
    (await evaluate(key, { targetingKey: "carol" }, headers)).json;
  assert.is((await ask("of.static")).value, true);
  assert.is((await ask("of.static")).value, true);
  await setup("POST", `${env("of.static")}/off`);
  assert.equal(await ask("of.static"), { key: "of.static", reason: "DISABLED", value: false, metadata: { enabled: false } });
  await setup("POST", `${env("of.static")}/on`);
  assert.is((await ask("of.static")).value, true);
  // The same body from a browser's token: its address stands in for remoteAddress, which the server's token never has.
  await flag("of.here");
  await setup("POST", `${env("of.here")}/strategies`, { name: "remoteAddress", parameters: { IPs: "127.0.0.1" } });
  assert.is((await ask("of.here")).value, false);
  assert.is((await ask("of.here", frontend)).value, true);
  assert.is((await ask("of.here")).value, false);
  await flag("of.coin");
  await setup("POST", `${env("of.coin")}/strategies`, {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "random", groupId: "coin" },
  });
  const seen = new Set<boolean>();
  for (let i = 0; i < 64 && seen.size < 2; i++) seen.add((await ask("of.coin")).value);
  assert.equal([...seen].sort(), [false, true]);
  // Off again: a draw in the scope would make the bulk answer's 304s below a matter of chance.
  await setup("POST", `${env("of.coin")}/off`);
});

test("a context that breaks a bound is INVALID_CONTEXT naming the field; a body that is no JSON object is PARSE_ERROR", async () => {
  const long = await evaluate("of.static", { targetingKey: "x".repeat(1001) });
  assert.is(long.status, 400);
  assert.is(long.json.key, "of.static");
  assert.is(long.json.errorCode, "INVALID_CONTEXT");
  assert.match(long.json.errorDetails, "context.userId");
  const time = await evaluate("of.static", { currentTime: "yesterday" });
  assert.equal([time.status, time.json.errorCode], [400, "INVALID_CONTEXT"]);
  const nested = await evaluate("of.static", { sessionId: { a: 1 } });
  assert.equal([nested.status, nested.json.errorCode], [400, "INVALID_CONTEXT"]);
  const notObject = await evaluate("of.static", "alice");
  assert.equal([notObject.status, notObject.json.errorCode], [400, "INVALID_CONTEXT"]);
  for (const raw of ["{not json", "[1,2]", '"text"']) {
    const res = await srv.call("POST", `${FLAG}/of.static`, { headers: { ...client, "content-type": "application/json" }, raw });
    assert.equal([res.status, res.json.key, res.json.errorCode], [400, "of.static", "PARSE_ERROR"], raw);
    assert.type(res.json.errorDetails, "string");
    const bulk = await srv.call("POST", FLAG, { headers: { ...client, "content-type": "application/json" }, raw });
    assert.equal([bulk.status, bulk.json.errorCode, "key" in bulk.json], [400, "PARSE_ERROR", false], raw);
  }
  const text = await srv.call("POST", `${FLAG}/of.static`, { headers: { ...client, "content-type": "text/plain" }, raw: "hi" });
  assert.equal([text.status, text.json.errorCode], [415, "PARSE_ERROR"]);
});

test("401 and 403 come in OFREP's body, with the request id in x-request-id", async () => {
  const user = await userWithRole(srv, "admin");
  const cases: [Record<string, string>, number][] = [
    [{}, 401],
    [{ authorization: "default:development.not-a-token" }, 401],
    [{ "x-api-key": "nope" }, 401],
    [user.headers, 403],
  ];
  for (const [headers, status] of cases) {
    for (const path of [`${FLAG}/of.static`, FLAG]) {
      const res = await srv.call("POST", path, { headers, body: {} });
      assert.is(res.status, status, `${path} ${JSON.stringify(headers)}`);
      assert.is(res.json.errorCode, "GENERAL");
      assert.type(res.json.errorDetails, "string");
      assert.not.ok("id" in res.json || "name" in res.json);
      assert.ok(res.headers["x-request-id"]);
    }
  }
});

test("the bulk route answers every flag of the scope, an ETag, and a 304 while neither the flags nor the context change", async () => {
  const first = await srv.call("POST", FLAG, { headers: client, body: { context: { targetingKey: "alice" } } });
  assert.is(first.status, 200);
  const keys = first.json.flags.map((f: { key: string }) => f.key);
  assert.ok(keys.includes("of.off") && keys.includes("of.json"));
  assert.not.ok(keys.includes("of.elsewhere"));
  assert.equal(
    first.json.flags.find((f: { key: string }) => f.key === "of.off"),
    { key: "of.off", reason: "DISABLED", value: false, metadata: { enabled: false } },
  );
  assert.equal(
    first.json.flags.find((f: { key: string }) => f.key === "of.targeted"),
    { key: "of.targeted", reason: "TARGETING_MATCH", value: true, metadata: { enabled: true } },
  );
  const etag = first.headers.etag as string;
  assert.match(etag, /^"[\w-]+"$/);
  const again = await srv.call("POST", FLAG, {
    headers: { ...client, "if-none-match": etag },
    body: { context: { targetingKey: "alice" } },
  });
  assert.equal([again.status, again.headers.etag, again.json], [304, etag, undefined]);
  // Another context, another answer.
  const bob = await srv.call("POST", FLAG, { headers: { ...client, "if-none-match": etag }, body: { context: { targetingKey: "bob" } } });
  assert.is(bob.status, 200);
  assert.is.not(bob.headers.etag, etag);
  // A change to a flag, a new answer.
  await setup("POST", `${env("of.off")}/on`);
  const changed = await srv.call("POST", FLAG, {
    headers: { ...client, "if-none-match": etag },
    body: { context: { targetingKey: "alice" } },
  });
  assert.is(changed.status, 200);
  assert.is(changed.json.flags.find((f: { key: string }) => f.key === "of.off").value, true);
  await setup("POST", `${env("of.off")}/off`);
});

test("the bulk answer's eventStreams sends refetchEvaluation when the token's flags change", async () => {
  const res = await srv.call("POST", FLAG, { headers: frontend, body: {} });
  const streams = res.json.eventStreams as { type: string; url: string }[];
  assert.is(streams.length, 1);
  assert.is(streams[0]?.type, "sse");
  assert.ok(streams[0]?.url.startsWith(`${srv.url}/ofrep/v1/event-stream/`), streams[0]?.url);
  assert.not.ok(streams[0]?.url.includes(frontend.authorization as string), "no token in the URL");
  // Opened as a browser's EventSource opens it: no header at all.
  const stream = await openSse(streams[0]!.url, {});
  try {
    assert.is(stream.status, 200);
    assert.match(String(stream.headers["content-type"]), "text/event-stream");
    // A change outside the token's projects sends nothing; one inside sends the event.
    await setup("POST", `${env("of.elsewhere", "elsewhere")}/off`);
    await setup("POST", `${env("of.static")}/off`);
    const event = await nextEvent(stream);
    assert.equal(JSON.parse(event.data as string), { type: "refetchEvaluation" });
    assert.match(event.id as string, /^\d+$/);
    const after = await srv.call("POST", FLAG, { headers: frontend, body: {} });
    assert.is(after.json.flags.find((f: { key: string }) => f.key === "of.static").reason, "DISABLED");
  } finally {
    stream.close();
    await setup("POST", `${env("of.static")}/on`);
  }
});

test("an event stream's ticket opens only while its token exists, and a forged one never (404)", async () => {
  const token = await createApiToken(srv.db.kysely, null, {
    tokenName: "short-lived",
    type: "frontend",
    projects: ["default"],
    environment: "development",
  });
  const res = await srv.call("POST", FLAG, { headers: { authorization: token.secret }, body: {} });
  const url = res.json.eventStreams[0].url as string;
  const ticket = url.slice(url.lastIndexOf("/") + 1);
  const [id] = ticket.split(".");
  for (const forged of [`${id}.${"A".repeat(43)}`, `${Number(id) + 1}.${ticket.split(".")[1]}`, "nonsense"]) {
    const refused = await srv.call("GET", `/ofrep/v1/event-stream/${forged}`);
    assert.is(refused.status, 404, forged);
    assert.is(refused.json.errorCode, "GENERAL");
  }
  await deleteApiToken(srv.db.kysely, null, token.id);
  const gone = await srv.call("GET", `/ofrep/v1/event-stream/${ticket}`);
  assert.is(gone.status, 404);
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
