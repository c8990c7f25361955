import { appRouter, restRoutes } from "@vexil/api";
import { RootRole, roleHasPermission } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The four-eyes rule (docs/change-requests.md#four-eyes): where change requests are on, an Editor (no SKIP_CHANGE_REQUEST)
// cannot make any direct write they cover, over either transport, while the same change proposed,
// approved by someone else and applied is stored.
const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const { kysely: db } = srv.db;
const admin = await adminToken(srv);
const author = await userWithRole(srv, "editor");
const approver = await userWithRole(srv, "editor");
const GATED_ENV = "production";
const FEATURE_PATH = "/api/admin/projects/{projectId}/features/{featureName}";
const ENV_PATH = `${FEATURE_PATH}/environments/{environment}`;
const BULK_PATH = "/api/admin/projects/{projectId}/bulk_features/environments/{environment}";

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

interface Request {
  params: Record<string, string>;
  body?: unknown;
}
interface Change {
  feature: string;
  action: string;
  payload: unknown;
}
/** One write the four-eyes rule covers: made directly it is refused; proposed as `change`, reviewed and applied, `stored` holds. */
interface Row {
  /** Made with the admin token (which may skip change requests): what the write acts on. */
  fixture(): Promise<Record<string, string>>;
  direct(f: Record<string, string>): Request;
  change(f: Record<string, string>): Change;
  stored(f: Record<string, string>): Promise<void>;
}

async function setup(method: string, path: string, body?: unknown): Promise<any> {
  const res = await srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}
async function newFeature(prefix: string): Promise<string> {
  return (await setup("POST", "/api/admin/projects/default/features", { name: unique(prefix) })).name;
}
const envUrl = (feature: string) => `/api/admin/projects/default/features/${feature}/environments/${GATED_ENV}`;
const envParams = (feature: string) => ({ projectId: "default", featureName: feature, environment: GATED_ENV });
const featureParams = (feature: string) => ({ projectId: "default", featureName: feature });

const featureEnvironment = (feature: string) =>
  db
    .selectFrom("feature_environments")
    .selectAll()
    .where("feature_name", "=", feature)
    .where("environment_name", "=", GATED_ENV)
    .executeTakeFirst();
const strategies = (feature: string) =>
  db
    .selectFrom("feature_strategies")
    .selectAll()
    .where("feature_name", "=", feature)
    .where("environment_name", "=", GATED_ENV)
    .orderBy("sort_order")
    .execute();
const parents = async (child: string) =>
  (await db.selectFrom("feature_dependencies").select("parent").where("child", "=", child).orderBy("parent").execute()).map(
    (d) => d.parent,
  );
const variantNames = async (feature: string) =>
  ((await featureEnvironment(feature))?.variants as { name: string }[] | null)?.map((v) => v.name);

const BLUE = { name: "blue", weightType: "variable", stickiness: "default" };
const GREEN = { name: "green", weightType: "variable", stickiness: "default" };

const GATED: Record<string, Row> = {
  [`POST ${ENV_PATH}/on`]: {
    fixture: async () => ({ feature: await newFeature("on") }),
    direct: ({ feature }) => ({ params: envParams(feature!) }),
    change: ({ feature }) => ({ feature: feature!, action: "updateEnabled", payload: { enabled: true } }),
    stored: async ({ feature }) => assert.is((await featureEnvironment(feature!))?.enabled, true),
  },
  [`POST ${ENV_PATH}/off`]: {
    fixture: async () => {
      const feature = await newFeature("off");
      await setup("POST", `${envUrl(feature)}/on`);
      return { feature };
    },
    direct: ({ feature }) => ({ params: envParams(feature!) }),
    change: ({ feature }) => ({ feature: feature!, action: "updateEnabled", payload: { enabled: false } }),
    stored: async ({ feature }) => assert.is((await featureEnvironment(feature!))?.enabled, false),
  },
  [`POST ${ENV_PATH}/strategies`]: {
    fixture: async () => ({ feature: await newFeature("add-strategy") }),
    direct: ({ feature }) => ({ params: envParams(feature!), body: { name: "userWithId", parameters: { userIds: "alice" } } }),
    change: ({ feature }) => ({
      feature: feature!,
      action: "addStrategy",
      payload: { name: "userWithId", parameters: { userIds: "alice" } },
    }),
    stored: async ({ feature }) =>
      assert.equal(
        (await strategies(feature!)).map((s) => [s.name, s.parameters]),
        [["userWithId", { userIds: "alice" }]],
      ),
  },
  [`PUT ${ENV_PATH}/strategies/{strategyId}`]: {
    fixture: async () => {
      const feature = await newFeature("update-strategy");
      const strategy = await setup("POST", `${envUrl(feature)}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
      return { feature, strategyId: strategy.id };
    },
    direct: ({ feature, strategyId }) => ({
      params: { ...envParams(feature!), strategyId: strategyId! },
      body: { name: "userWithId", parameters: { userIds: "bob" } },
    }),
    change: ({ feature, strategyId }) => ({
      feature: feature!,
      action: "updateStrategy",
      payload: { id: strategyId, name: "userWithId", parameters: { userIds: "bob" } },
    }),
    stored: async ({ feature, strategyId }) =>
      assert.equal(
        (await strategies(feature!)).map((s) => [s.id, s.parameters]),
        [[strategyId, { userIds: "bob" }]],
      ),
  },
  [`DELETE ${ENV_PATH}/strategies/{strategyId}`]: {
    fixture: async () => {
      const feature = await newFeature("delete-strategy");
      const strategy = await setup("POST", `${envUrl(feature)}/strategies`, { name: "default" });
      return { feature, strategyId: strategy.id };
    },
    direct: ({ feature, strategyId }) => ({ params: { ...envParams(feature!), strategyId: strategyId! } }),
    change: ({ feature, strategyId }) => ({ feature: feature!, action: "deleteStrategy", payload: { id: strategyId } }),
    stored: async ({ feature }) => assert.equal(await strategies(feature!), []),
  },
  [`PUT ${ENV_PATH}/variants`]: {
    fixture: async () => ({ feature: await newFeature("put-variants") }),
    direct: ({ feature }) => ({ params: envParams(feature!), body: [BLUE] }),
    change: ({ feature }) => ({ feature: feature!, action: "patchVariant", payload: { variants: [BLUE] } }),
    stored: async ({ feature }) => assert.equal(await variantNames(feature!), ["blue"]),
  },
  [`PATCH ${ENV_PATH}/variants`]: {
    fixture: async () => {
      const feature = await newFeature("patch-variants");
      await setup("PUT", `${envUrl(feature)}/variants`, [BLUE]);
      return { feature };
    },
    direct: ({ feature }) => ({ params: envParams(feature!), body: [{ op: "add", path: "/-", value: GREEN }] }),
    // A change request carries the whole variants array: the patch's result.
    change: ({ feature }) => ({ feature: feature!, action: "patchVariant", payload: { variants: [BLUE, GREEN] } }),
    stored: async ({ feature }) => assert.equal(await variantNames(feature!), ["blue", "green"]),
  },
  [`POST ${FEATURE_PATH}/dependencies`]: {
    fixture: async () => ({ child: await newFeature("child"), parent: await newFeature("parent") }),
    direct: ({ child, parent }) => ({ params: featureParams(child!), body: { feature: parent } }),
    change: ({ child, parent }) => ({ feature: child!, action: "addDependency", payload: { feature: parent } }),
    stored: async ({ child, parent }) => assert.equal(await parents(child!), [parent]),
  },
  [`DELETE ${FEATURE_PATH}/dependencies/{parent}`]: {
    fixture: async () => {
      const [child, parent] = [await newFeature("child"), await newFeature("parent")];
      await setup("POST", `/api/admin/projects/default/features/${child}/dependencies`, { feature: parent });
      return { child, parent };
    },
    direct: ({ child, parent }) => ({ params: { ...featureParams(child!), parent: parent! } }),
    change: ({ child, parent }) => ({ feature: child!, action: "deleteDependency", payload: { feature: parent } }),
    stored: async ({ child }) => assert.equal(await parents(child!), []),
  },
  // Archiving takes a flag from every environment (docs/flag-lifecycle.md#archive-revive-delete).
  [`DELETE ${FEATURE_PATH}`]: {
    fixture: async () => ({ feature: await newFeature("archive") }),
    direct: ({ feature }) => ({ params: featureParams(feature!) }),
    change: ({ feature }) => ({ feature: feature!, action: "archiveFeature", payload: {} }),
    stored: async ({ feature }) => {
      const row = await db.selectFrom("features").select("archived_at").where("name", "=", feature!).executeTakeFirstOrThrow();
      assert.instance(row.archived_at, Date);
    },
  },
  // Daily edits (docs/flag-model.md#daily-edits): a bulk switch is proposed as updateEnabled for each feature.
  [`POST ${BULK_PATH}/on`]: {
    fixture: async () => ({ feature: await newFeature("bulk-on") }),
    direct: ({ feature }) => ({ params: { projectId: "default", environment: GATED_ENV }, body: { features: [feature] } }),
    change: ({ feature }) => ({ feature: feature!, action: "updateEnabled", payload: { enabled: true } }),
    stored: async ({ feature }) => assert.is((await featureEnvironment(feature!))?.enabled, true),
  },
  [`POST ${BULK_PATH}/off`]: {
    fixture: async () => {
      const feature = await newFeature("bulk-off");
      await setup("POST", `${envUrl(feature)}/on`);
      return { feature };
    },
    direct: ({ feature }) => ({ params: { projectId: "default", environment: GATED_ENV }, body: { features: [feature] } }),
    change: ({ feature }) => ({ feature: feature!, action: "updateEnabled", payload: { enabled: false } }),
    stored: async ({ feature }) => assert.is((await featureEnvironment(feature!))?.enabled, false),
  },
  [`PATCH ${ENV_PATH}/strategies/{strategyId}`]: {
    fixture: async () => {
      const feature = await newFeature("patch-strategy");
      const strategy = await setup("POST", `${envUrl(feature)}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
      return { feature, strategyId: strategy.id };
    },
    direct: ({ feature, strategyId }) => ({
      params: { ...envParams(feature!), strategyId: strategyId! },
      body: [{ op: "replace", path: "/parameters/userIds", value: "bob" }],
    }),
    change: ({ feature, strategyId }) => ({
      feature: feature!,
      action: "patchStrategy",
      payload: { id: strategyId, patch: [{ op: "replace", path: "/parameters/userIds", value: "bob" }] },
    }),
    stored: async ({ feature, strategyId }) =>
      assert.equal(
        (await strategies(feature!)).map((s) => [s.id, s.parameters]),
        [[strategyId, { userIds: "bob" }]],
      ),
  },
  [`POST ${ENV_PATH}/strategies/set-sort-order`]: {
    fixture: async () => {
      const feature = await newFeature("sort-order");
      const first = await setup("POST", `${envUrl(feature)}/strategies`, { name: "default" });
      const second = await setup("POST", `${envUrl(feature)}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
      return { feature, first: first.id, second: second.id };
    },
    direct: ({ feature, second }) => ({ params: envParams(feature!), body: [{ id: second, sortOrder: -1 }] }),
    change: ({ feature, second }) => ({ feature: feature!, action: "reorderStrategy", payload: [{ id: second, sortOrder: -1 }] }),
    stored: async ({ feature, first, second }) =>
      assert.equal(
        (await strategies(feature!)).map((s) => s.id),
        [second, first],
      ),
  },
};

/**
 * Writes the four-eyes rule covers that have no change-request form: refused to an Editor wherever
 * an environment of the project has change requests on (docs/flag-model.md#daily-edits).
 */
const GATED_WITHOUT_PROPOSAL: Record<string, { direct(): Promise<Request> }> = {
  [`POST ${FEATURE_PATH}/clone`]: {
    direct: async () => ({ params: featureParams(await newFeature("clone-source")), body: { name: unique("clone") } }),
  },
  // A segment used by a strategy in the gated environment: emptying it would widen that strategy to everyone.
  "PUT /api/admin/segments/{id}": {
    direct: async () => {
      const name = unique("beta-testers");
      const constraints = [{ contextName: "userId", operator: "IN", values: ["alice"] }];
      const segment = await setup("POST", "/api/admin/segments", { name, constraints });
      const feature = await newFeature("segmented");
      await setup("POST", `${envUrl(feature)}/strategies`, { name: "default", segments: [segment.id] });
      return { params: { id: String(segment.id) }, body: { name, constraints: [] } };
    },
  },
  // An import into an environment with change requests on (docs/migrate-from-unleash.md#four-eyes).
  "POST /api/admin/features-batch/import": {
    direct: async () => ({
      params: {},
      body: {
        project: "default",
        environment: GATED_ENV,
        data: {
          features: [{ name: unique("imported"), project: "default" }],
          featureStrategies: [],
          featureEnvironments: [],
          contextFields: [],
          featureTags: [],
          segments: [],
          tagTypes: [],
          dependencies: [],
        },
      },
    }),
  },
};

/** Writes that touch a feature or name an environment but that the four-eyes rule does not cover, and why. */
const NOT_GATED: Record<string, string> = {
  "POST /api/admin/segments": "a new segment is used by no strategy",
  "DELETE /api/admin/segments/{id}": "only a segment that no strategy uses is deleted (a 409 otherwise)",
  "POST /api/admin/projects/{projectId}/features": "a new feature is off, with nothing, in every environment",
  [`PUT ${FEATURE_PATH}`]: "a feature's description, type and impressionData are not environment state",
  [`PATCH ${FEATURE_PATH}`]: "as PUT: a feature's description, type, stale and impressionData are not environment state",
  "POST /api/admin/projects/{projectId}/environments/{environment}/change-requests": "proposing a change is the four-eyes path itself",
  "PUT /api/admin/projects/{projectId}/environments/{environment}/change-requests/config": "Admin only: it sets the rule",
  "POST /api/admin/projects/{projectId}/environments": "Admin only: enabling an environment in a project stores no feature state",
  "POST /api/admin/api-tokens": "Admin only: a token's environment is its scope",
  "POST /api/admin/archive/revive/{featureName}": "a revived flag comes back off in every environment, as in Unleash",
  "DELETE /api/admin/archive/{featureName}": "only an archived flag is deleted, and it is served nowhere already",
  "POST /api/admin/features/{featureName}/tags": "tags are a flag's metadata, not environment state (Unleash does not gate them)",
  "PUT /api/admin/features/{featureName}/tags": "tags are a flag's metadata, not environment state (Unleash does not gate them)",
  "DELETE /api/admin/features/{featureName}/tags/{type}/{value}":
    "tags are a flag's metadata, not environment state (Unleash does not gate them)",
  [`POST ${FEATURE_PATH}/lifecycle/complete`]: "a lifecycle mark for people, not environment state (Unleash does not gate it either)",
  [`POST ${FEATURE_PATH}/lifecycle/uncomplete`]: "a lifecycle mark for people, not environment state (Unleash does not gate it either)",
  "POST /api/admin/features-batch/export": "a read sent as a POST, as Unleash's: it stores nothing",
  "POST /api/admin/features-batch/validate": "a read sent as a POST, as Unleash's: it says what an import would do and stores nothing",
  "POST /api/admin/playground": "a read sent as a POST, as Unleash's: it evaluates flags for a context and stores nothing",
};

interface Procedure {
  _def: { type: string; inputs: { shape?: Record<string, unknown>; unwrap?: () => { shape?: Record<string, unknown> } }[] };
}
const procedures = appRouter._def.procedures as unknown as Record<string, Procedure>;
const routes = new Map(restRoutes(appRouter).map((r) => [`${r.method} ${r.path}`, r]));

/** The input keys of a procedure, path parameters and body fields alike. */
function inputKeys(procedure: Procedure): string[] {
  return procedure._def.inputs.flatMap((input) => Object.keys(input.shape ?? input.unwrap?.().shape ?? {}));
}

test("the table lists every write on a feature or an environment, gated or said why not", () => {
  assert.is(roleHasPermission(RootRole.Editor, "SKIP_CHANGE_REQUEST"), false, "an Editor must not skip change requests");
  const writes = [...routes.entries()]
    // The client and frontend APIs take SDK tokens, which write no flag state.
    .filter(([, r]) => r.path.startsWith("/api/admin/") && procedures[r.procedurePath]!._def.type === "mutation")
    .filter(([, r]) => {
      const keys = inputKeys(procedures[r.procedurePath]!);
      return (
        keys.includes("featureName") ||
        keys.includes("environment") ||
        r.path.startsWith("/api/admin/projects/{projectId}/features") ||
        // A segment's constraints are part of every strategy that uses it.
        r.path.startsWith("/api/admin/segments")
      );
    })
    .map(([route]) => route);
  const unlisted = writes.filter((route) => !(route in GATED) && !(route in GATED_WITHOUT_PROPOSAL) && !(route in NOT_GATED));
  assert.equal(unlisted, [], `writes neither tested against the four-eyes rule nor said to be outside it: ${unlisted.join(", ")}`);
  const stale = [...Object.keys(GATED), ...Object.keys(GATED_WITHOUT_PROPOSAL), ...Object.keys(NOT_GATED)].filter(
    (route) => !writes.includes(route),
  );
  assert.equal(stale, [], `rows for routes that are not such writes: ${stale.join(", ")}`);
});

await setup("PUT", `/api/admin/projects/default/environments/${GATED_ENV}/change-requests/config`, {
  changeRequestsEnabled: true,
  requiredApprovals: 1,
});

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] as string));
}

/** What a refused write must leave as it was: every table's row count, the last event, and the state SDKs are served. */
async function storedState(): Promise<unknown> {
  return {
    counts: await dbSnapshot(db),
    environments: await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute(),
    strategies: await db.selectFrom("feature_strategies").selectAll().orderBy("id").execute(),
    strategySegments: await db.selectFrom("feature_strategy_segments").selectAll().orderBy("strategy_id").execute(),
    segments: await db.selectFrom("segments").selectAll().orderBy("id").execute(),
    dependencies: await db.selectFrom("feature_dependencies").selectAll().orderBy("child").orderBy("parent").execute(),
  };
}

for (const [route, row] of Object.entries(GATED)) {
  test(`${route}: refused to an Editor over REST and tRPC, nothing stored; proposed, approved and applied, stored`, async () => {
    const fixture = await row.fixture();
    const [method, template] = route.split(" ") as [string, string];
    const { params, body } = row.direct(fixture);
    const before = await storedState();

    const rest = await srv.call(method, fillPath(template, params), { headers: author.headers, ...(body !== undefined ? { body } : {}) });
    assert.is(rest.status, 403, JSON.stringify(rest.json));
    assert.is(rest.json.name, "NoAccessError");
    assert.match(rest.json.message, "SKIP_CHANGE_REQUEST");
    assert.equal(await storedState(), before, "a refused REST write stores nothing");

    const { procedurePath, meta } = routes.get(route)!;
    const input = meta.bodyField ? { ...params, [meta.bodyField]: body } : { ...(body as object | undefined), ...params };
    const trpc = await srv.call("POST", `/trpc/${procedurePath}`, { headers: author.headers, body: input });
    assert.is(trpc.status, 403, JSON.stringify(trpc.json));
    assert.is(trpc.json.error.data.name, "NoAccessError");
    assert.match(trpc.json.error.message, "SKIP_CHANGE_REQUEST");
    assert.equal(await storedState(), before, "a refused tRPC write stores nothing");

    const crPath = "/api/admin/projects/default/change-requests";
    const proposed = await srv.call("POST", `/api/admin/projects/default/environments/${GATED_ENV}/change-requests`, {
      headers: author.headers,
      body: row.change(fixture),
    });
    assert.is(proposed.status, 200, JSON.stringify(proposed.json));
    const { id } = proposed.json;
    for (const [who, state] of [
      [author, "In review"],
      [approver, "Approved"],
      [approver, "Applied"],
    ] as const) {
      const moved = await srv.call("PUT", `${crPath}/${id}/state`, { headers: who.headers, body: { state } });
      assert.is(moved.status, 200, `${state}: ${JSON.stringify(moved.json)}`);
      assert.is(moved.json.state, state);
    }
    await row.stored(fixture);
  });
}

for (const [route, row] of Object.entries(GATED_WITHOUT_PROPOSAL)) {
  test(`${route}: refused to an Editor over REST and tRPC, nothing stored`, async () => {
    const [method, template] = route.split(" ") as [string, string];
    const { params, body } = await row.direct();
    const before = await storedState();
    const rest = await srv.call(method, fillPath(template, params), { headers: author.headers, ...(body !== undefined ? { body } : {}) });
    assert.is(rest.status, 403, JSON.stringify(rest.json));
    assert.match(rest.json.message, "SKIP_CHANGE_REQUEST");
    const { procedurePath } = routes.get(route)!;
    const trpc = await srv.call("POST", `/trpc/${procedurePath}`, { headers: author.headers, body: { ...(body as object), ...params } });
    assert.is(trpc.status, 403, JSON.stringify(trpc.json));
    assert.match(trpc.json.error.message, "SKIP_CHANGE_REQUEST");
    assert.equal(await storedState(), before, "a refused write stores nothing");
  });
}

test("a segment used only where change requests are off, or edited by an Admin, is edited directly", async () => {
  const name = unique("ungated");
  const constraints = [{ contextName: "userId", operator: "IN", values: ["alice"] }];
  const segment = await setup("POST", "/api/admin/segments", { name, constraints });
  const feature = await newFeature("ungated");
  await setup("POST", `/api/admin/projects/default/features/${feature}/environments/development/strategies`, {
    name: "default",
    segments: [segment.id],
  });
  const edited = await srv.call("PUT", `/api/admin/segments/${segment.id}`, { headers: author.headers, body: { name, constraints: [] } });
  assert.is(edited.status, 200, JSON.stringify(edited.json));
  await setup("POST", `${envUrl(feature)}/strategies`, { name: "default", segments: [segment.id] });
  const refused = await srv.call("PUT", `/api/admin/segments/${segment.id}`, { headers: author.headers, body: { name, constraints } });
  assert.is(refused.status, 403);
  assert.match(refused.json.message, `The segment "${name}" is used in the "${GATED_ENV}" environment of the project "default"`);
  const byAdmin = await srv.call("PUT", `/api/admin/segments/${segment.id}`, { headers: admin, body: { name, constraints } });
  assert.is(byAdmin.status, 200, JSON.stringify(byAdmin.json));
  const stored = await db.selectFrom("segments").select("constraints").where("id", "=", segment.id).executeTakeFirstOrThrow();
  assert.equal(
    stored.constraints,
    constraints.map((c) => ({ ...c, caseInsensitive: false, inverted: false })),
  );
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});
test.run();
