import { once } from "node:events";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { nextEvent, openSse, type SseEvent } from "./support/sse-stream.ts";
import { startTestServer } from "./support/test-server.ts";

// A short heartbeat, so that the test sees one; a small stream limit, so that it reaches it.
const MAX_STREAMS = 4;
const srv = await startTestServer({ STREAMING_HEARTBEAT_MS: "200", STREAMING_MAX_CONNECTIONS: String(MAX_STREAMS) });
const admin = await adminToken(srv);
const call = (method: string, path: string, body?: unknown, headers = admin) =>
  srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
const env = (feature: string) => `/api/admin/projects/default/features/${feature}/environments/development`;
const newToken = async (type: string) =>
  (await call("POST", "/api/admin/api-tokens", { tokenName: `${type}-${Math.random()}`, type, environment: "development" })).json
    .secret as string;
const sdkToken = await newToken("client");
const sdk = { authorization: sdkToken };
assert.is((await call("POST", "/api/admin/projects/default/features", { name: "stream.flag" })).status, 201);

const stream = (headers: Record<string, string> = {}) => openSse(`${srv.url}/api/client/streaming`, { ...sdk, ...headers });
const eventsOf = (event: SseEvent) => JSON.parse(event.data as string).events as any[];

test("a stream starts with a hydration whose id is its revision; each change follows as unleash-updated with a higher id", async () => {
  const s = await stream();
  try {
    assert.is(s.status, 200);
    assert.match(String(s.headers["content-type"]), /^text\/event-stream/);
    const connected = await nextEvent(s);
    assert.is(connected.event, "unleash-connected");
    const [hydration] = eventsOf(connected);
    assert.is(hydration.type, "hydration");
    assert.is(String(hydration.eventId), connected.id);
    assert.equal(hydration.features.find((f: { name: string }) => f.name === "stream.flag")?.enabled, false);

    assert.is((await call("POST", `${env("stream.flag")}/on`)).status, 200);
    const updated = await nextEvent(s);
    assert.is(updated.event, "unleash-updated");
    assert.ok(Number(updated.id) > Number(connected.id));
    const events = eventsOf(updated);
    assert.equal(
      events.map((e) => [e.type, e.feature?.name, e.feature?.enabled, e.eventId]),
      [["feature-updated", "stream.flag", true, Number(updated.id)]],
    );

    // A segment reaches the stream before the strategy that uses it.
    const segment = (
      await call("POST", "/api/admin/segments", {
        name: "stream-segment",
        constraints: [{ contextName: "appName", operator: "IN", values: ["a"] }],
      })
    ).json;
    assert.is((await call("POST", `${env("stream.flag")}/strategies`, { name: "default", segments: [segment.id] })).status, 200);
    const withSegment = eventsOf(await nextEvent(s));
    assert.equal(
      withSegment.map((e) => e.type),
      ["segment-updated", "feature-updated"],
    );
    assert.is(withSegment[0].segment.id, segment.id);
    assert.equal(withSegment[1].feature.strategies[0].segments, [segment.id]);

    // Gone from what the token is served: removed, with its project (the admin API has no archive yet).
    assert.is((await call("POST", "/api/admin/projects/default/features", { name: "stream.doomed" })).status, 201);
    assert.is(eventsOf(await nextEvent(s))[0].feature.name, "stream.doomed");
    await srv.db.kysely.deleteFrom("features").where("name", "=", "stream.doomed").execute();
    const removed = await nextEvent(s);
    assert.equal(eventsOf(removed), [
      { type: "feature-removed", eventId: Number(removed.id), featureName: "stream.doomed", project: "default" },
    ]);
  } finally {
    s.close();
  }
});

test("Last-Event-ID resumes with only what changed since, without a hydration; an id the server no longer has gets a hydration", async () => {
  const first = await stream();
  const connected = await nextEvent(first);
  first.close();
  assert.is((await call("POST", `${env("stream.flag")}/off`)).status, 200);

  const resumed = await stream({ "last-event-id": connected.id as string });
  try {
    const next = await nextEvent(resumed);
    assert.is(next.event, "unleash-updated", "no hydration");
    assert.equal(
      eventsOf(next).map((e) => [e.type, e.feature.name, e.feature.enabled]),
      [["feature-updated", "stream.flag", false]],
    );
    assert.ok(Number(next.id) > Number(connected.id));
  } finally {
    resumed.close();
  }
  const unknown = await stream({ "last-event-id": "1" });
  try {
    const next = await nextEvent(unknown);
    assert.is(next.event, "unleash-connected");
    assert.is(eventsOf(next)[0].type, "hydration");
  } finally {
    unknown.close();
  }
});

test("an idle stream gets heartbeat comments, and nothing else while nothing changes", async () => {
  const s = await stream();
  try {
    const connected = await nextEvent(s);
    // Resumed at the current revision: nothing to send but heartbeats.
    const current = await stream({ "last-event-id": connected.id as string });
    try {
      const first = await current.next();
      assert.is(first.comment, "heartbeat");
      assert.is(first.event, undefined);
    } finally {
      current.close();
    }
  } finally {
    s.close();
  }
});

test("past the instance's stream limit the answer is a fetch-mode hint, and the real SDK polls instead", async () => {
  const open = [];
  try {
    while ((srv.app.deps.clientStreams?.size ?? 0) < MAX_STREAMS) {
      const s = await stream();
      await nextEvent(s);
      open.push(s);
    }
    const over = await stream();
    assert.is(over.status, 200);
    assert.is(over.headers["fetch-mode"], "polling");
    assert.equal(await over.next(), { event: "fetch-mode", data: "polling" });
    await over.ended;

    const unleash = new Unleash({
      url: `${srv.url}/api/`,
      appName: "over-limit",
      customHeaders: sdk,
      disableMetrics: true,
      refreshInterval: 60_000,
      experimentalMode: { type: "streaming" },
    });
    const warnings: string[] = [];
    unleash.on("warn", (message) => warnings.push(String(message)));
    unleash.on("error", (error) => assert.unreachable(String(error)));
    try {
      await once(unleash, "synchronized");
      assert.ok(warnings.includes("Server has explicitly requested switching to polling mode"), warnings.join("; "));
      assert.is(unleash.isEnabled("stream.flag"), false);
      assert.ok(
        srv.logs.some((l) => l.msg === "request" && l.url === "/api/client/features"),
        "it polled the feature list",
      );
    } finally {
      unleash.destroy();
    }
  } finally {
    for (const s of open) s.close();
  }
});

test("delta: a hydration with the revision as ETag; 304 at that revision; the events since after a change; a hydration for an unknown one", async () => {
  const first = await call("GET", "/api/client/delta", undefined, sdk);
  assert.is(first.status, 200);
  assert.match(String(first.headers["content-type"]), /^application\/json/);
  const [hydration] = first.json.events;
  assert.is(hydration.type, "hydration");
  assert.is(first.headers.etag, `"${hydration.eventId}"`);
  assert.ok(hydration.features.some((f: { name: string }) => f.name === "stream.flag"));

  const same = await call("GET", "/api/client/delta", undefined, { ...sdk, "if-none-match": first.headers.etag as string });
  assert.is(same.status, 304);
  assert.is(same.headers.etag, first.headers.etag);

  assert.is((await call("POST", `${env("stream.flag")}/on`)).status, 200);
  const since = await call("GET", "/api/client/delta", undefined, { ...sdk, "if-none-match": first.headers.etag as string });
  assert.is(since.status, 200);
  assert.equal(
    since.json.events.map((e: any) => [e.type, e.feature.name, e.feature.enabled]),
    [["feature-updated", "stream.flag", true]],
  );
  assert.ok(Number(JSON.parse(since.headers.etag as string)) > hydration.eventId);

  const unknown = await call("GET", "/api/client/delta", undefined, { ...sdk, "if-none-match": '"1"' });
  assert.is(unknown.json.events[0].type, "hydration");
  const narrowed = await call("GET", "/api/client/delta?project=elsewhere", undefined, sdk);
  assert.equal(narrowed.json.events[0].features, []);
});

test("delta and streaming take a client or admin token; a frontend token, a user or nobody gets the one error body; JSON for a JSON client", async () => {
  const frontend = { authorization: await newToken("frontend") };
  const user = (await userWithRole(srv, "admin")).headers;
  for (const path of ["/api/client/delta", "/api/client/streaming"]) {
    assertError(await call("GET", path, undefined, {}), 401, "AuthenticationRequired");
    assertError(
      await call("GET", path, undefined, { authorization: "default:development.not-a-real-secret" }),
      401,
      "AuthenticationRequired",
    );
    assertError(await call("GET", path, undefined, frontend), 403, "NoAccessError");
    assertError(await call("GET", path, undefined, user), 403, "NoAccessError");
    assertError(await call("GET", `${path}?namePrefix=${"x".repeat(101)}`, undefined, sdk), 400, "ValidationError");
  }
  // A JSON client (the typed REST client sends Accept: application/json) gets the first event's data.
  const json = await call("GET", "/api/client/streaming", undefined, { ...sdk, accept: "application/json" });
  assert.is(json.status, 200);
  assert.match(String(json.headers["content-type"]), /^application\/json/);
  assert.is(json.json.events[0].type, "hydration");
  const byAdmin = await stream(admin);
  try {
    assert.is((await nextEvent(byAdmin)).event, "unleash-connected");
  } finally {
    byAdmin.close();
  }
});

test("a stream ends when its credential is revoked: a deleted client token, a deleted user's console stream", async () => {
  const made = (await call("POST", "/api/admin/api-tokens", { tokenName: "revoked", type: "client", environment: "development" })).json;
  const s = await openSse(`${srv.url}/api/client/streaming`, { authorization: made.secret });
  assert.is((await nextEvent(s)).event, "unleash-connected");
  const kept = await stream();
  assert.is((await nextEvent(kept)).event, "unleash-connected");
  try {
    assert.is((await call("DELETE", `/api/admin/api-tokens/${made.id}`)).status, 200);
    assert.is(await s.ended, "end");
    assert.is((await call("POST", `${env("stream.flag")}/off`)).status, 200);
    assert.is((await nextEvent(kept)).event, "unleash-updated", "another token's stream carries on");
  } finally {
    kept.close();
  }

  const user = await userWithRole(srv, "editor");
  const consoleStream = await openSse(`${srv.url}/api/admin/console-events`, { ...user.headers, accept: "text/event-stream" });
  assert.is(consoleStream.status, 200);
  assert.is((await consoleStream.next()).comment, "connected");
  assert.is((await call("DELETE", `/api/admin/user-admin/${user.id}`)).status, 200);
  assert.is(await consoleStream.ended, "end");
});

test("shutdown ends every stream cleanly, and the server closes", async () => {
  const other = await startTestServer({});
  const token = (
    await other.call("POST", "/api/admin/api-tokens", {
      headers: await adminToken(other),
      body: { tokenName: "s", type: "client", environment: "development" },
    })
  ).json.secret;
  const s = await openSse(`${other.url}/api/client/streaming`, { authorization: token });
  assert.is((await nextEvent(s)).event, "unleash-connected");
  await other.close();
  assert.is(await s.ended, "end", "the response ended, not cut off");
  assert.is(other.app.deps.clientStreams?.size, 0);
});

test.after(() => srv.close());
test.run();
