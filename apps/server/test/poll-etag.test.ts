import { createHash } from "node:crypto";
import { createApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "./support/eventually.ts";
import { adminToken } from "./support/principals.ts";
import { type Reply, startTestServer } from "./support/test-server.ts";

// The poll ETags of the frontend API and OFREP bulk (docs/sdk-protocols.md#poll-etags): a repeated
// poll is a 304 that evaluates nothing, told by the read model's count of evaluations.
const srv = await startTestServer({ TRUST_PROXY: "127.0.0.1", METRICS_FLUSH_INTERVAL_MS: "0" });
const admin = await adminToken(srv);
const evaluations = () => srv.app.deps.servedFeatures.evaluations;

async function setup(method: string, path: string, body?: unknown): Promise<void> {
  const res = await srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
}
const env = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}/environments/development`;
async function project(id: string): Promise<void> {
  await setup("POST", "/api/admin/projects", { id, name: id });
  await setup("POST", `/api/admin/projects/${id}/environments`, { environment: "development" });
}
async function flag(projectId: string, name: string, strategy?: Record<string, unknown>): Promise<void> {
  await setup("POST", `/api/admin/projects/${projectId}/features`, { name });
  await setup("POST", `${env(projectId, name)}/on`);
  if (strategy) await setup("POST", `${env(projectId, name)}/strategies`, strategy);
}
let tokens = 0;
async function token(type: "frontend" | "client", projects: string[], environment = "development"): Promise<Record<string, string>> {
  const created = await createApiToken(srv.db.kysely, null, { tokenName: `poll-${type}-${++tokens}`, type, projects, environment });
  return { authorization: created.secret };
}

// Flags that read userId and the property "plan", and nothing else.
await project("poll");
await flag("poll", "poll.beta", { name: "userWithId", parameters: { userIds: "alice" } });
await flag("poll", "poll.plan", { name: "default", constraints: [{ contextName: "plan", operator: "IN", values: ["pro"] }] });
await flag("poll", "poll.everyone", { name: "flexibleRollout", parameters: { rollout: "100", stickiness: "default", groupId: "g" } });
await project("empty");

const address = { "x-forwarded-for": "198.51.100.1" };
const browser = { ...(await token("frontend", ["poll"])), ...address };
const get = (query: string, headers: Record<string, string> = browser) => srv.call("GET", `/api/frontend${query}`, { headers });
const post = (context: unknown, headers: Record<string, string> = browser) =>
  srv.call("POST", "/api/frontend", { headers, body: { context } });
const bulk = (context: unknown, headers: Record<string, string>) =>
  srv.call("POST", "/ofrep/v1/evaluate/flags", { headers, body: { context } });
const names = (res: Reply) => (res.json.toggles as { name: string }[]).map((t) => t.name);
const ifNoneMatch = (headers: Record<string, string>, res: Reply) => ({ ...headers, "if-none-match": res.headers.etag as string });

/** Asserts that `ask` answers a 304 with `etag` and evaluates nothing. */
async function notModified(ask: () => Promise<Reply>, etag: unknown, what: string): Promise<void> {
  const before = evaluations();
  const res = await ask();
  assert.equal([res.status, res.json, res.headers.etag], [304, undefined, etag], what);
  assert.is(evaluations(), before, `${what}: nothing evaluated`);
}

test("a repeated poll (GET, POST, OFREP bulk) is a 304 with the same ETag, and nothing is evaluated", async () => {
  const first = await get("?userId=alice&properties%5Bplan%5D=pro");
  assert.is(first.status, 200);
  assert.equal(names(first), ["poll.beta", "poll.everyone", "poll.plan"]);
  await notModified(() => get("?userId=alice&properties%5Bplan%5D=pro", ifNoneMatch(browser, first)), first.headers.etag, "GET");
  // The 200's ETag is the one the 304 path computes: asked again without If-None-Match, the same.
  assert.is((await get("?userId=alice&properties%5Bplan%5D=pro")).headers.etag, first.headers.etag);
  // POST carries the same context in another form: the same answer, the same ETag.
  await notModified(() => post({ userId: "alice", properties: { plan: "pro" } }, ifNoneMatch(browser, first)), first.headers.etag, "POST");

  const client = await token("client", ["poll"]);
  const flags = await bulk({ targetingKey: "alice", plan: "pro" }, client);
  assert.is(flags.status, 200);
  assert.is.not(flags.headers.etag, first.headers.etag, "another body, another ETag");
  await notModified(() => bulk({ targetingKey: "alice", plan: "pro" }, ifNoneMatch(client, flags)), flags.headers.etag, "OFREP bulk");
});

test("a context value some flag reads gives a 200 and a new ETag; one no flag reads is the same poll", async () => {
  const first = await get("?userId=alice&properties%5Bplan%5D=pro");
  const since = ifNoneMatch(browser, first);
  for (const query of ["?userId=bob&properties%5Bplan%5D=pro", "?userId=alice&properties%5Bplan%5D=free", "?userId=alice"]) {
    const res = await get(query, since);
    assert.is(res.status, 200, query);
    assert.is.not(res.headers.etag, first.headers.etag, query);
  }
  // No flag of the scope reads a sessionId, the property "colour", the time or (without a remoteAddress strategy) the address.
  const unread = [
    "?userId=alice&properties%5Bplan%5D=pro&sessionId=s1",
    "?userId=alice&properties%5Bplan%5D=pro&properties%5Bcolour%5D=red",
    "?userId=alice&properties%5Bplan%5D=pro&currentTime=2031-01-01T00:00:00Z",
    "?userId=alice&properties%5Bplan%5D=pro&remoteAddress=203.0.113.9",
  ];
  for (const query of unread) {
    await notModified(() => get(query, since), first.headers.etag, query);
    // And the 304 told the truth: the body for that context is the first one.
    assert.equal((await get(query)).json, first.json, query);
  }
});

test("the same query from another address is another poll where a flag reads the address (the memo keys by both)", async () => {
  await project("poll-address");
  await flag("poll-address", "poll.office", { name: "remoteAddress", parameters: { IPs: "198.51.100.1" } });
  const scoped = await token("frontend", ["poll-address"]);
  const from = (ip: string, extra: Record<string, string> = {}) => get("?userId=alice", { ...scoped, "x-forwarded-for": ip, ...extra });
  const office = await from("198.51.100.1");
  assert.equal(names(office), ["poll.office"]);
  await notModified(
    () => from("198.51.100.1", { "if-none-match": office.headers.etag as string }),
    office.headers.etag,
    "the office again",
  );
  const home = await from("203.0.113.7", { "if-none-match": office.headers.etag as string });
  assert.is(home.status, 200);
  assert.equal(names(home), []);
  assert.is.not(home.headers.etag, office.headers.etag);
});

test("a changed flag gives a 200 with a new ETag", async () => {
  const first = await get("?userId=carol");
  assert.equal(names(first), ["poll.everyone"]);
  await setup("POST", `${env("poll", "poll.everyone")}/off`);
  // The change reaches the snapshot when the database's notice does.
  await until(async () => (await get("?userId=carol", ifNoneMatch(browser, first))).status === 200, "the switched flag to be served");
  const changed = await get("?userId=carol", ifNoneMatch(browser, first));
  assert.equal(names(changed), []);
  assert.is.not(changed.headers.etag, first.headers.etag);
  await setup("POST", `${env("poll", "poll.everyone")}/on`);
  await until(async () => names(await get("?userId=carol")).length === 1, "the flag back on");
});

test("a change no answer can show (a strategy of a switched-off flag, a description) keeps the ETag", async () => {
  await flag("poll", "poll.dormant");
  await setup("POST", `${env("poll", "poll.dormant")}/off`);
  const scope = { environment: "development", projects: ["poll"] };
  const dormant = async () => (await srv.app.deps.servedFeatures.features(scope)).features.find((f) => f.name === "poll.dormant");
  await until(async () => (await dormant())?.enabled === false, "the switched-off flag to be served");
  const first = await get("?userId=alice");
  await setup("POST", `${env("poll", "poll.dormant")}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
  await setup("PUT", "/api/admin/projects/poll/features/poll.dormant", { description: "not yet" });
  await until(async () => (await dormant())?.description === "not yet", "the changes to be in the snapshot");
  await notModified(() => get("?userId=alice", ifNoneMatch(browser, first)), first.headers.etag, "after changes no answer shows");
});

test("another token scope gives a 200 with a new ETag, even where it serves the same flags", async () => {
  const first = await get("?userId=alice");
  const wider = { ...(await token("frontend", ["poll", "empty"])), ...address };
  const res = await get("?userId=alice", { ...wider, "if-none-match": first.headers.etag as string });
  assert.is(res.status, 200);
  assert.equal(res.json, first.json);
  assert.is.not(res.headers.etag, first.headers.etag);
  const production = { ...(await token("frontend", ["poll"], "production")), ...address };
  const other = await get("?userId=alice", { ...production, "if-none-match": first.headers.etag as string });
  assert.equal([other.status, names(other)], [200, []]);
});

// A constraint's date a day from now, and one a day ago: the context's currentTime moves across them.
const DAY = 86_400_000;
const later = new Date(Date.now() + DAY);
const earlier = new Date(Date.now() - DAY);
const at = (date: Date, offsetMs: number) => new Date(date.getTime() + offsetMs).toISOString();
await project("dated");
await flag("dated", "dated.launch", {
  name: "default",
  constraints: [{ contextName: "currentTime", operator: "DATE_AFTER", value: later.toISOString() }],
});
await flag("dated", "dated.sale", {
  name: "default",
  constraints: [{ contextName: "currentTime", operator: "DATE_BEFORE", value: earlier.toISOString() }],
});
const dated = { ...(await token("frontend", ["dated"])), ...address };

test("date constraints: the same side of every boundary is the same poll; crossing one gives a 200 with the new answer", async () => {
  const before = await get(`?currentTime=${at(later, -60_000)}`, dated);
  assert.equal([before.status, names(before)], [200, []]);
  // Still before the launch, after the sale: nothing that decides an answer moved.
  await notModified(() => get(`?currentTime=${at(later, -1_000)}`, ifNoneMatch(dated, before)), before.headers.etag, "a second before");
  // Without a currentTime it is now, which lies in the same span: the same answer.
  await notModified(() => get("", ifNoneMatch(dated, before)), before.headers.etag, "now");
  const launched = await get(`?currentTime=${at(later, 60_000)}`, ifNoneMatch(dated, before));
  assert.equal([launched.status, names(launched)], [200, ["dated.launch"]]);
  assert.is.not(launched.headers.etag, before.headers.etag);
  // At the boundary itself DATE_AFTER does not hold yet: an answer of its own.
  const exactly = await get(`?currentTime=${later.toISOString()}`, ifNoneMatch(dated, before));
  assert.equal([exactly.status, names(exactly)], [200, []]);
  assert.is.not(exactly.headers.etag, before.headers.etag);
  // Before the sale's end, the sale is on.
  const sale = await get(`?currentTime=${at(earlier, -60_000)}`, ifNoneMatch(dated, before));
  assert.equal([sale.status, names(sale)], [200, ["dated.sale"]]);
});

// Rollouts that draw: random stickiness at 50%, and the default stickiness at 50% (a draw without a userId or sessionId).
await project("drawn");
await flag("drawn", "drawn.coin", { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "random", groupId: "c" } });
await project("sticky");
await flag("sticky", "sticky.half", { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "default", groupId: "h" } });
const drawnToken = { ...(await token("frontend", ["drawn"])), ...address };
const stickyToken = { ...(await token("frontend", ["sticky"])), ...address };
const digestOf = (res: Reply) => `"${createHash("sha256").update(JSON.stringify(res.json)).digest("base64url").slice(0, 27)}"`;

test("random stickiness: every poll is a draw, evaluated, and a 304 only when this draw's body is the one the caller holds", async () => {
  let held = await get("", drawnToken);
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const before = evaluations();
    const res = await get("", ifNoneMatch(drawnToken, held));
    assert.is(evaluations(), before + 1, "each poll is evaluated");
    if (res.status === 304) {
      assert.is(res.headers.etag, held.headers.etag);
    } else {
      assert.is(res.status, 200);
      // The ETag of a draw is its body's digest, so a 304 says the caller's body is this draw's.
      assert.is(res.headers.etag, digestOf(res));
      held = res;
    }
    seen.add(JSON.stringify(names(held)));
  }
  // Both sides of a 50% draw, 40 times over (missing one has a chance of 2^-39).
  assert.is(seen.size, 2);
});

test("default stickiness: a draw without userId or sessionId, the same poll with either", async () => {
  const withUser = await get("?userId=dana", stickyToken);
  await notModified(() => get("?userId=dana", ifNoneMatch(stickyToken, withUser)), withUser.headers.etag, "with a userId");
  const session = await get("?sessionId=s-9", stickyToken);
  await notModified(() => get("?sessionId=s-9", ifNoneMatch(stickyToken, session)), session.headers.etag, "with a sessionId");
  // A property named userId is not the field the default stickiness reads: still a draw.
  const anonymous = await get("?properties%5BuserId%5D=dana", stickyToken);
  assert.is(anonymous.headers.etag, digestOf(anonymous));
  const before = evaluations();
  const again = await get("?properties%5BuserId%5D=dana", ifNoneMatch(stickyToken, anonymous));
  assert.is(evaluations(), before + 1, "a draw is evaluated");
  assert.ok(again.status === 304 || again.headers.etag === digestOf(again));
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
