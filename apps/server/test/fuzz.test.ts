import {
  addFeatureStrategy,
  changePassword,
  createAddon,
  createApiToken,
  createBanner,
  createScimGroup,
  createScimUser,
  createUser,
  RootRole,
} from "@vexil/services";
import fc from "fast-check";
import { Pool } from "undici";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { responseChecker } from "./support/openapi-responses.ts";
import { type Caller, newCaller, type PrincipalKind } from "./support/principal-kinds.ts";
import { loginHeaders, TEST_PASSWORD } from "./support/principals.ts";
import { arbitraryFor, type JsonSchema } from "./support/schema-arbitrary.ts";
import { firstEvent, startTestServer } from "./support/test-server.ts";

// Bounded and on a fixed seed by default, so a run of the suite checks the same requests every time
// and a red build means a regression, not a lucky draw. A hunt for new bugs draws its own seed:
// VEXIL_FUZZ_SEED=random VEXIL_FUZZ_RUNS=20000; a failure prints the seed to replay it with.
const RUNS = Number(process.env.VEXIL_FUZZ_RUNS || 3000);
const SEED_SETTING = process.env.VEXIL_FUZZ_SEED || "20261122";
const SEED = SEED_SETTING === "random" ? Date.now() % 2 ** 31 : Number(SEED_SETTING);

// Every fuzzed request comes "through a proxy" from its own address, so the login throttle
// (per address) limits the fuzzer's logins and never the fixture logins from 127.0.0.1.
// Delivery off: an integration the fuzzer creates must not send its writes to a fuzzed URL.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0", TRUST_PROXY: "127.0.0.1", WEBHOOK_POLL_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const hasher = srv.app.deps.hasher;
const doc = (await srv.call("GET", "/docs/openapi.json")).json as JsonSchema;
const check = responseChecker(doc);
const http = new Pool(srv.url, { connections: 1 });

const KINDS: PrincipalKind[] = ["nobody", "viewer", "editor", "admin", "adminToken", "frontendToken", "scimToken"];
const callers: Caller[] = [];
for (const kind of KINDS) callers.push(await newCaller(srv, kind));

// A world worth reading and writing: a feature, production gated by change requests, and pools of
// ids (grown by successful creates) that path parameters draw from. Principals are never in them.
const FEATURE = "fuzz-feature";
const admin = callers[3] as Caller;
await srv.call("POST", "/api/admin/projects/default/features", { body: { name: FEATURE }, headers: admin.headers });
await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
  body: { changeRequestsEnabled: true, requiredApprovals: 1 },
  headers: admin.headers,
});
// A flag that starts archived, for revive and delete (docs/flag-lifecycle.md#archive-revive-delete); every route may be sent it.
const ARCHIVED = "fuzz-archived";
await srv.call("POST", "/api/admin/projects/default/features", { body: { name: ARCHIVED }, headers: admin.headers });
await srv.call("DELETE", `/api/admin/projects/default/features/${ARCHIVED}`, { headers: admin.headers });
const pools: Record<string, (number | string)[]> = {
  banners: [],
  users: [],
  tokens: [],
  pats: [],
  changeRequests: [],
  addons: [],
  scimUsers: [],
  scimGroups: [],
  groups: [],
};
// Provisioned users and groups for SCIM's paths (by their SCIM ids) and the admin API's group reads (by id).
const idp = { kind: "scim-token", tokenId: 0, tokenName: "fuzz-idp" } as const;
for (let i = 0; i < 3; i++) {
  pools.banners!.push((await createBanner(db, null, { message: `seed ${i}` })).id);
  pools.users!.push((await createUser(db, hasher, null, { username: `fuzz-victim-${i}`, rootRole: RootRole.Viewer })).id);
  pools.tokens!.push((await createApiToken(db, null, { tokenName: `fuzz-${i}`, type: "client" })).id);
  const hook = { provider: "webhook", parameters: { url: `http://127.0.0.1:9/fuzz-${i}` }, events: ["feature-created"] };
  pools.addons!.push((await createAddon(db, null, hook, { allowPrivateTargets: true })).id);
  const member = await createScimUser(db, idp, { userName: `fuzz-scim-${i}`, emails: [{ value: `fuzz-scim-${i}@example.com` }] });
  pools.scimUsers!.push(member.id);
  const group = await createScimGroup(db, idp, { displayName: `fuzz-scim-group-${i}`, members: [{ value: member.id }] });
  pools.scimGroups!.push(group.id);
  pools.groups!.push((await db.selectFrom("groups").select("id").where("scim_id", "=", group.id).executeTakeFirstOrThrow()).id);
}
const proposal = await srv.call("POST", "/api/admin/projects/default/environments/production/change-requests", {
  body: { feature: FEATURE, action: "updateEnabled", payload: { enabled: true } },
  headers: (callers[2] as Caller).headers,
});
pools.changeRequests!.push(proposal.json.id);
await createUser(db, hasher, null, { username: "fuzz-login", password: TEST_PASSWORD, rootRole: RootRole.Viewer });
// Tags to read, change and delete: a type of the fuzzer's own beside `simple`, and a tag the feature carries.
const FUZZ_TAG = { type: "simple", value: "fuzz-tag" };
await srv.call("POST", "/api/admin/tag-types", { body: { name: "fuzz-type" }, headers: admin.headers });
await srv.call("POST", `/api/admin/features/${FEATURE}/tags`, { body: FUZZ_TAG, headers: admin.headers });

// A segment that a production strategy of the feature uses: editing it edits what production serves (the bypass a review found).
const FUZZ_SEGMENT = { name: "fuzz-segment", constraints: [{ contextName: "userId", operator: "IN", values: ["alice"] }] };
pools.segments = [(await srv.call("POST", "/api/admin/segments", { body: FUZZ_SEGMENT, headers: admin.headers })).json.id];
await srv.call("POST", `/api/admin/projects/default/features/${FEATURE}/environments/production/strategies`, {
  body: { name: "default", segments: pools.segments },
  headers: admin.headers,
});

/** What production serves of the feature, segments included: only change requests and SKIP_CHANGE_REQUEST may change it. */
async function servedInProduction(): Promise<string> {
  const where = (qb: any) => qb.where("feature_name", "=", FEATURE).where("environment_name", "=", "production");
  const environment = await where(db.selectFrom("feature_environments").select(["enabled", "variants"])).executeTakeFirst();
  const strategies = await where(db.selectFrom("feature_strategies").selectAll()).orderBy("id").execute();
  const segments = await db
    .selectFrom("feature_strategy_segments as fss")
    .innerJoin("segments as s", "s.id", "fss.segment_id")
    .select(["fss.strategy_id", "s.constraints"])
    .where("fss.strategy_id", "in", ["", ...strategies.map((r: { id: string }) => r.id)])
    .orderBy("fss.strategy_id")
    .orderBy("s.id")
    .execute();
  return JSON.stringify({ environment, strategies, segments });
}

function poolFor(path: string): (number | string)[] | undefined {
  if (path.startsWith("/api/admin/segments/")) return pools.segments;
  if (path.startsWith("/scim/v2/Users/")) return pools.scimUsers;
  if (path.startsWith("/scim/v2/Groups/")) return pools.scimGroups;
  if (path.startsWith("/api/admin/groups/")) return pools.groups;
  if (path.startsWith("/api/admin/banners/")) return pools.banners;
  if (path.startsWith("/api/admin/addons/")) return pools.addons;
  if (path.startsWith("/api/admin/user-admin/")) return pools.users;
  if (path.startsWith("/api/admin/api-tokens/")) return pools.tokens;
  if (path.startsWith("/api/admin/user/tokens/")) return pools.pats;
  if (path.includes("/change-requests/{id}")) return pools.changeRequests;
  return undefined;
}

// OFREP's event stream opens by the ticket a bulk evaluation names.
const ofrepBulk = await srv.call("POST", "/ofrep/v1/evaluate/flags", { headers: (callers[5] as Caller).headers, body: {} });
const ofrepStreamUrl = ofrepBulk.json.eventStreams[0].url as string;

const KNOWN: Record<string, unknown[]> = {
  key: [FEATURE],
  ticket: [ofrepStreamUrl.slice(ofrepStreamUrl.lastIndexOf("/") + 1)],
  projectId: ["default"],
  featureName: [FEATURE, ARCHIVED],
  feature: [FEATURE],
  features: [[FEATURE], [ARCHIVED], [FEATURE, ARCHIVED, "fuzz-no-such-flag"], [], [FEATURE, "fuzz-missing"], [FEATURE, FEATURE]],
  environment: ["development", "production"],
  username: ["fuzz-login", "admin"],
  password: [TEST_PASSWORD, "a long enough password"],
  // Bodies of the tag routes: tags of a type that exists.
  addedTags: [[FUZZ_TAG], [{ type: "fuzz-type", value: "fuzz-added" }]],
  removedTags: [[FUZZ_TAG], []],
  // Flag lifecycle: lifetimes in and out of Unleash's range.
  lifetimeDays: [0, 7, 40, null, -1, 2_147_483_648],
  // Daily edits (docs/flag-model.md#daily-edits): a strategy of the feature to patch and reorder, and the feature to switch in bulk.
  strategyId: [
    (await addFeatureStrategy(db, null, { projectId: "default", featureName: FEATURE, environment: "development" }, { name: "default" }))
      .id,
  ],
};
/** Path parameters only: body fields of these names (a token's `type`, a feature's `name`) have rules of their own. */
const KNOWN_IN_PATH: Record<string, unknown[]> = { type: ["simple", "fuzz-type"], value: [FUZZ_TAG.value], name: ["simple", "fuzz-type"] };
// Feature types are named, not numbered: `{id}` of their paths draws from these.
const FEATURE_TYPE_IDS = ["release", "Kill-Switch", "sunset", "fuzz-no-such-type"];
const hint = (property: string) => (KNOWN[property] ? fc.constantFrom(...KNOWN[property]) : undefined);
const resolve = (ref: string) =>
  ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((node: any, key) => node[key], doc) as JsonSchema;

// Query values that a parameter's schema cannot describe (a filter's syntax), valid and nearly so, by path and name.
const SEARCH = "/api/admin/search/features";
const QUERY_VALUES: Record<string, Record<string, string[]>> = {
  [SEARCH]: {
    query: ["fuzz", "FUZZ-feat", "a,b", "%", "_", "\\", ","],
    project: ["IS:default", "IS_NOT:default", "IS_ANY_OF:default,other", "IS_NONE_OF:default", "IS:", "IS_ALL:default", "default"],
    type: ["IS:release", "IS_NONE_OF:release,experiment", "IS:"],
    state: ["IS:stale", "IS_ANY_OF:active,potentially-stale", "IS_NOT:stale", "IS:rotten"],
    lifecycle: ["IS:live", "IS_NOT:archived", "IS_ANY_OF:initial,archived", "IS:dead"],
    createdBy: ["IS:1", "IS_NOT:1,2", "IS:abc", "IS:99999999999"],
    tag: ["INCLUDE:simple:a", "INCLUDE_ALL_OF:simple:a,simple:b", "EXCLUDE_ALL:simple:a", "DO_NOT_INCLUDE:simple:a:b", "INCLUDE:simple"],
    segment: ["INCLUDE:seg", "EXCLUDE_IF_ANY_OF:a,b", "IS:seg"],
    status: ["production:enabled", "development:disabled", "production:on", ":enabled"],
    createdAt: ["IS_BEFORE:2026-01-01", "IS_ON_OR_AFTER:2020-02-29", "IS_BEFORE:2026-02-30", "IS_AFTER:2026-01-01"],
    lastSeenAt: ["IS_ON_OR_AFTER:2026-01-01", "IS_BEFORE:9999-12-31", "IS_BEFORE:0000-01-01"],
    archived: ["IS:true", "IS:false", "yes"],
    favorite: ["IS:true", "IS_ANY_OF:true,false", "IS:maybe"],
    favoritesFirst: ["true", "false", "yes"],
    sortBy: ["createdAt", "name", "type", "stale", "project", "lastSeenAt", "environment:production", "environment:", "bogus"],
    sortOrder: ["asc", "desc", "up"],
    offset: ["0", "50", "2147483647", "2147483648", "-1"],
    limit: ["1", "100", "0", "101"],
  },
};

// Path parameter values that have broken routers before: encoding, traversal, separators, size.
const NASTY = [
  "%",
  "%zz",
  "%2",
  "..",
  ".",
  "a/b",
  "a%2Fb",
  "💥🚩",
  "ﷺ‮",
  "x".repeat(3000),
  " ",
  "\u0000",
  "-1",
  "0",
  "1.5",
  "9".repeat(40),
  "null",
];

type ParamChoice = { known: number } | { value: string; raw: boolean };
type BodyChoice =
  | { kind: "none" }
  | { kind: "json"; value: unknown; label: string }
  | { kind: "raw"; text: string; contentType: string | undefined; label: string };
interface FuzzCase {
  caller: number;
  params: Record<string, ParamChoice>;
  /** Query parameters in order, repeats and undeclared names included. */
  query: [string, string][];
  body: BodyChoice;
}

function paramArbitrary(name: string, schema: JsonSchema, path: string): fc.Arbitrary<ParamChoice> {
  const choices: fc.WeightedArbitrary<ParamChoice>[] = [
    { arbitrary: fc.constantFrom(...NASTY).map((value) => ({ value, raw: false })), weight: 2 },
    // Sent unencoded: a bare "%" and ".." must reach the router as they are.
    { arbitrary: fc.constantFrom("%", "%zz", "..", ".", "%E0%A4%A").map((value) => ({ value, raw: true })), weight: 1 },
    // Never empty: "/banners//on" is another route, not a strange value of this one.
    { arbitrary: fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }).map((value) => ({ value, raw: false })), weight: 1 },
  ];
  if (schema.type === "integer") {
    // Never a small id at random: it could be one of the fuzzer's own principals.
    choices.push({ arbitrary: fc.integer({ min: 1_000_000, max: 2 ** 31 }).map((n) => ({ value: String(n), raw: false })), weight: 1 });
  }
  if (poolFor(path) || KNOWN[name] || KNOWN_IN_PATH[name] || path.startsWith("/api/admin/feature-types/"))
    choices.push({ arbitrary: fc.nat().map((known) => ({ known })), weight: 6 });
  return fc.oneof(...choices);
}

const UNICODE = [
  "",
  "😀👩‍👩‍👧‍👦",
  "\u202Eabc",
  "e\u0301",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\uffff",
  "𝕍𝕖𝕩𝕚𝕝",
  "'; drop table banners; --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
];
const CONTENT_TYPES = [
  undefined,
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/jsonx",
  "multipart/form-data; boundary=x",
  "application/json-patch+json",
];

/** Breaks a valid body in one of the ways the issue lists. */
function broken(valid: unknown): fc.Arbitrary<BodyChoice> {
  const keys = valid && typeof valid === "object" && !Array.isArray(valid) ? Object.keys(valid) : [];
  const withKey = (f: (key: string, value: Record<string, unknown>) => fc.Arbitrary<unknown>, label: string): fc.Arbitrary<BodyChoice> =>
    keys.length === 0
      ? fc.constant({ kind: "json", value: valid, label: "valid" })
      : fc
          .constantFrom(...keys)
          .chain((key) =>
            f(key, { ...(valid as Record<string, unknown>) }).map((value) => ({ kind: "json" as const, value, label: `${label} ${key}` })),
          );
  const text = JSON.stringify(valid) ?? "null";
  return fc.oneof(
    withKey((key, v) => {
      delete v[key];
      return fc.constant(v);
    }, "missing"),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })).map(([key, extra]) => ({
      kind: "json" as const,
      value: Array.isArray(valid) ? [...valid, extra] : { ...(valid as object), [`x-${key}`]: extra },
      label: "extra field",
    })),
    withKey(
      (key, v) =>
        fc
          .oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.string())
          .map((w) => ({ ...v, [key]: w })),
      "wrong type",
    ),
    withKey((key, v) => fc.constantFrom(5_000, 100_000, 300_000).map((n) => ({ ...v, [key]: "x".repeat(n) })), "huge string"),
    withKey((key, v) => fc.constantFrom(...UNICODE).map((u) => ({ ...v, [key]: u })), "unicode string"),
    fc.jsonValue({ maxDepth: 2 }).map((value) => ({ kind: "json" as const, value, label: "any JSON" })),
    fc
      .nat({ max: Math.max(0, text.length - 1) })
      .map((cut) => ({ kind: "raw" as const, text: text.slice(0, cut), contentType: "application/json", label: "broken JSON" })),
    fc
      .constantFrom("{", "nul", "[1,]", "{'a':1}", "\u0000", "\ufeff{}", "1e999999")
      .map((t) => ({ kind: "raw" as const, text: t, contentType: "application/json", label: "broken JSON" })),
    fc
      .constantFrom(...CONTENT_TYPES)
      .map((contentType) => ({ kind: "raw" as const, text, contentType, label: `content type ${contentType}` })),
  );
}

/**
 * The query of an operation that reads one and declares its 400: each declared parameter absent,
 * valid or nasty, then a few more pairs: repeats, bracketed `properties[...]` names and strangers.
 */
function queryArbitrary(path: string, operation: JsonSchema): fc.Arbitrary<[string, string][]> {
  const declared = ((operation.parameters ?? []) as JsonSchema[]).filter((p) => p.in === "query");
  if (declared.length === 0 || !operation.responses?.["400"]) return fc.constant([]);
  const value = (schema: JsonSchema, name: string) => {
    const known = QUERY_VALUES[path]?.[name] ?? [];
    return fc.oneof(
      ...(known.length ? [{ arbitrary: fc.constantFrom(...known), weight: 6 }] : []),
      { arbitrary: arbitraryFor(schema, { resolve, hint }).map(String), weight: 3 },
      { arbitrary: fc.constantFrom(...NASTY, ...UNICODE), weight: 2 },
      { arbitrary: fc.constantFrom(1_001, 2_000).map((n) => "x".repeat(n)), weight: 1 },
    );
  };
  const known = declared.map((p) =>
    fc.option(value(p.schema ?? {}, p.name), { nil: undefined }).map((v): [string, string][] => (v === undefined ? [] : [[p.name, v]])),
  );
  const names = fc.oneof(
    fc.constantFrom(...declared.map((p) => p.name as string)),
    fc.string({ maxLength: 12 }).map((name) => `properties[${name}]`),
    fc.constantFrom("properties[a][b]", "properties[]", "properties", "[x]", "a]", "properties[plan"),
    fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }),
  );
  const extra = fc.array(fc.tuple(names, fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...UNICODE))), { maxLength: 3 });
  return fc.tuple(fc.tuple(...known), extra).map(([pairs, more]) => [...pairs.flat(), ...more]);
}

function caseArbitrary(path: string, operation: JsonSchema): fc.Arbitrary<FuzzCase> {
  const params: Record<string, fc.Arbitrary<ParamChoice>> = {};
  for (const p of (operation.parameters ?? []) as JsonSchema[]) {
    if (p.in === "path") params[p.name] = paramArbitrary(p.name, p.schema ?? {}, path);
  }
  const schema = operation.requestBody?.content?.["application/json"]?.schema as JsonSchema | undefined;
  let body: fc.Arbitrary<BodyChoice>;
  if (schema) {
    const valid = arbitraryFor(schema, { resolve, hint });
    body = fc.oneof(
      { arbitrary: valid.map((value) => ({ kind: "json" as const, value, label: "valid" })), weight: 2 },
      { arbitrary: valid.chain(broken), weight: 3 },
    );
  } else {
    body = fc.oneof(
      { arbitrary: fc.constant({ kind: "none" as const }), weight: 4 },
      {
        arbitrary: fc
          .constantFrom(...CONTENT_TYPES, "application/json")
          .map((contentType) => ({ kind: "raw" as const, text: '{"a":1}', contentType, label: `unexpected body ${contentType}` })),
        weight: 1,
      },
    );
  }
  return fc.record({
    caller: fc.nat({ max: callers.length - 1 }),
    params: fc.record(params),
    query: queryArbitrary(path, operation),
    body,
  });
}

function pathFor(template: string, choices: Record<string, ParamChoice>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const choice = choices[name] as ParamChoice;
    if ("known" in choice) {
      const typeIds = template.startsWith("/api/admin/feature-types/") && name === "id" ? FEATURE_TYPE_IDS : undefined;
      const known =
        typeIds ??
        (poolFor(template) && (name === "id" || name === "groupId")
          ? (poolFor(template) as unknown[])
          : (KNOWN[name] ?? KNOWN_IN_PATH[name] ?? []));
      return encodeURIComponent(String(known.length ? known[choice.known % known.length] : choice.known));
    }
    return choice.raw ? choice.value : encodeURIComponent(choice.value);
  });
}

/** Keeps the fuzzer's callers alive when a fuzzed request ended their own session or password. */
async function revive(caller: Caller, path: string, status: number): Promise<void> {
  if (status !== 200 || !caller.headers.cookie || caller.userId === undefined) return;
  if (path === "/api/admin/user/change-password") await changePassword(db, hasher, null, caller.userId, TEST_PASSWORD);
  if (path !== "/api/admin/user/change-password" && path !== "/logout") return;
  const username = (await db.selectFrom("users").select("username").where("id", "=", caller.userId).executeTakeFirstOrThrow())
    .username as string;
  caller.headers = await loginHeaders(srv, username, TEST_PASSWORD);
}

function remember(path: string, method: string, status: number, body: any): void {
  if (status >= 300 || !body) return;
  if (method === "POST" && path === "/api/admin/banners") pools.banners!.push(body.id);
  if (method === "POST" && path === "/api/admin/addons") pools.addons!.push(body.id);
  if (method === "POST" && path === "/api/admin/user-admin") pools.users!.push(body.id);
  if (method === "POST" && path === "/api/admin/api-tokens") pools.tokens!.push(body.id);
  if (method === "POST" && path === "/api/admin/user/tokens") pools.pats!.push(body.id);
  if (method === "POST" && path.endsWith("/change-requests")) pools.changeRequests!.push(body.id);
  if (method === "POST" && path === "/scim/v2/Users") pools.scimUsers!.push(body.id);
  if (method === "POST" && path === "/scim/v2/Groups") pools.scimGroups!.push(body.id);
}

const statuses: Record<string, number> = {};
let requests = 0;
let rejected = 0;

async function send(method: string, template: string, c: FuzzCase): Promise<void> {
  const caller = callers[c.caller] as Caller;
  const search = new URLSearchParams(c.query).toString();
  const path = pathFor(template, c.params) + (search ? `?${search}` : "");
  const headers: Record<string, string> = { ...caller.headers, "x-forwarded-for": `10.${requests % 200}.${(requests >> 8) % 250}.7` };
  let payload: string | undefined;
  if (c.body.kind === "json") {
    payload = JSON.stringify(c.body.value);
    headers["content-type"] = "application/json";
  } else if (c.body.kind === "raw") {
    payload = c.body.text;
    if (c.body.contentType) headers["content-type"] = c.body.contentType;
  }
  const label = `${method} ${path} as ${caller.kind} (${c.body.kind === "none" ? "no body" : c.body.label})`;

  const before = await dbSnapshot(db);
  // Four eyes: only an Admin, or a change request's own routes, may change what production serves.
  const guarded = caller.kind !== "admin" && caller.kind !== "adminToken" && !template.includes("/change-requests");
  const served = guarded ? await servedInProduction() : undefined;
  const res = await http.request({ method: method as "GET", path, headers, body: payload });
  const text = String(res.headers["content-type"]).startsWith("text/event-stream") ? await firstEvent(res.body) : await res.body.text();
  requests++;
  statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  const where = `${label.slice(0, 300)}: ${res.statusCode} ${text.slice(0, 300)}`;
  assert.ok(res.statusCode < 500, `a 5xx: ${where}`);
  const problem = check.problem(method, template, res.statusCode, res.headers["content-type"] as string | undefined, json);
  assert.is(problem, null, `${problem} — ${where}`);
  if (res.statusCode >= 400) {
    rejected++;
    const after = await dbSnapshot(db);
    const changed = Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .map((k) => `${k} ${before[k]} -> ${after[k]}`);
    assert.equal(changed, [], `a rejected request changed the database (${changed.join(", ")}): ${where}`);
  }
  if (guarded) assert.is(await servedInProduction(), served, `a caller without SKIP_CHANGE_REQUEST changed production: ${where}`);
  remember(template, method, res.statusCode, json);
  await revive(caller, template, res.statusCode);
}

const operations = Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);

/** Requests of the shapes that found bugs before (a review's), sent as they are before the random ones, under the same checks. */
const doubling = (n: number, target: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({ op: "copy", from: "", path: target(i) }));
const SHAPES: { method: string; template: string; kind: PrincipalKind; params: Record<string, string>; body: unknown; label: string }[] = [
  ...[
    ["copies of the root, each doubling the flag", doubling(40, (i) => (i % 2 ? "/stale" : "/type"))],
    ["a move of the root", [{ op: "move", from: "", path: "/description" }]],
    ["150 operations", Array.from({ length: 150 }, () => ({ op: "test", path: "/name", value: FEATURE }))],
  ].map(([label, body]) => ({
    method: "PATCH",
    template: "/api/admin/projects/{projectId}/features/{featureName}",
    kind: "editor" as const,
    params: { projectId: "default", featureName: FEATURE },
    body,
    label: label as string,
  })),
  {
    method: "PATCH",
    template: "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants",
    kind: "editor",
    params: { projectId: "default", featureName: FEATURE, environment: "development" },
    body: doubling(40, () => "/-"),
    label: "copies of the root into the variants",
  },
  {
    method: "PATCH",
    template: "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}",
    kind: "editor",
    params: { projectId: "default", featureName: FEATURE, environment: "development", strategyId: String(KNOWN.strategyId?.[0]) },
    body: doubling(40, (i) => (i % 2 ? "/parameters/a" : "/title")),
    label: "copies of the root into a strategy",
  },
  {
    method: "PUT",
    template: "/api/admin/segments/{id}",
    kind: "editor",
    params: { id: String(pools.segments?.[0]) },
    body: { name: FUZZ_SEGMENT.name, constraints: [] },
    label: "an Editor emptying a segment that production uses",
  },
  {
    method: "POST",
    template: "/api/admin/addons",
    kind: "admin",
    params: {},
    body: {
      provider: "webhook",
      parameters: { url: "http://127.0.0.1:9/wild" },
      events: ["feature-created"],
      projects: ["*"],
      environments: ["*"],
    },
    label: "an integration for every project and environment by wildcard",
  },
];

test("the shapes that found bugs before: no 5xx, declared statuses, rejections change nothing, four eyes hold", async () => {
  for (const shape of SHAPES) {
    const params = Object.fromEntries(Object.entries(shape.params).map(([name, value]) => [name, { value, raw: false }]));
    await send(shape.method, shape.template, {
      caller: KINDS.indexOf(shape.kind),
      params,
      query: [],
      body: { kind: "json", value: shape.body, label: shape.label },
    });
  }
});

test("every operation of the served document, fuzzed: no 5xx, declared statuses and bodies, rejections change nothing", async () => {
  console.log(`fuzz: seed ${SEED} (replay with VEXIL_FUZZ_SEED=${SEED}), ${RUNS} requests over ${operations.length} operations`);
  const perOperation = Math.max(1, Math.ceil(RUNS / operations.length));
  for (const [i, { method, path, operation }] of operations.entries()) {
    try {
      await fc.assert(
        fc.asyncProperty(caseArbitrary(path, operation), (c) => send(method, path, c)),
        // Each run is a real request against a database that remembers: no shrinking, report as found.
        { seed: SEED + i, numRuns: perOperation, endOnFailure: true },
      );
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      const found = (cause?.message ?? (error as Error).message).slice(0, 3000);
      throw new Error(`fuzz failed on ${method} ${path}; replay with VEXIL_FUZZ_SEED=${SEED}\n${found}`);
    }
  }
  console.log(`fuzz: ${requests} requests fuzzed, ${rejected} rejected with the database unchanged, statuses ${JSON.stringify(statuses)}`);
  assert.ok(requests >= RUNS);
  for (const status of ["200", "201", "400", "401", "403", "404"])
    assert.ok((statuses[status] ?? 0) > 0, `the fuzzer reached status ${status}`);
});

test.after(async () => {
  await http.close();
  await srv.close();
  await srv.db.close();
});

test.run();
