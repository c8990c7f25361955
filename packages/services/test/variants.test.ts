import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createEnvironment,
  createFeature,
  createProject,
  featureEnvironmentVariants,
  NotFoundError,
  type Principal,
  replaceFeatureEnvironmentVariants,
  ValidationError,
} from "../src/index.ts";
import type { FeatureEnvironmentPath } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const carol: Principal = { kind: "user", userId: 4, username: "carol", rootRole: 2, via: "session" };

// "default" has development and production enabled (the seed); "staging" exists but is not enabled there.
await write(async (trx) => {
  await createEnvironment(trx, null, { name: "staging", type: "test" });
  await createProject(trx, null, { id: "other", name: "Other" });
  await createFeature(trx, null, "default", { name: "checkout" });
  await createFeature(trx, null, "other", { name: "elsewhere" });
});

let n = 0;
/** A fresh feature in "default", so that tests do not see each other's variants. */
async function freshFeature(): Promise<FeatureEnvironmentPath> {
  const featureName = `feature-${++n}`;
  await createFeature(db, null, "default", { name: featureName });
  return { projectId: "default", featureName, environment: "production" };
}

const put = (path: FeatureEnvironmentPath, variants: unknown) => replaceFeatureEnvironmentVariants(db, carol, path, variants);

/** Everything a rejected write could have touched. */
const snapshot = async () => ({
  rows: await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute(),
  events: await db.selectFrom("events").select("id").orderBy("id").execute(),
});

const weights = (variants: { name: string; weight: number }[]) => variants.map((v) => [v.name, v.weight]);

test("no variants written yet reads as []", async () => {
  const path = await freshFeature();
  assert.equal(await featureEnvironmentVariants(db, path), []);
});

test("PUT fills in defaults and returns what GET then reads", async () => {
  const path = await freshFeature();
  const stored = await put(path, [{ name: "a", payload: null }]);
  assert.equal(stored, [{ name: "a", weight: 1000, weightType: "variable", stickiness: "default", overrides: [] }]);
  assert.equal(await featureEnvironmentVariants(db, path), stored);
});

test("weights: 1 variable variant gets 1000", async () => {
  const path = await freshFeature();
  assert.equal(weights(await put(path, [{ name: "a", weight: 3 }])), [["a", 1000]]);
});

test("weights: 3 variable variants get 334/333/333, the first in input order getting the extra one", async () => {
  const path = await freshFeature();
  const stored = await put(path, [{ name: "c" }, { name: "a" }, { name: "b" }]);
  assert.equal(weights(stored), [
    ["a", 333],
    ["b", 333],
    ["c", 334],
  ]);
});

test("weights: fix 900 and 6 variable variants get 17,17,17,17,16,16", async () => {
  const path = await freshFeature();
  const input = [{ name: "fixed", weightType: "fix", weight: 900 }, ...["v1", "v2", "v3", "v4", "v5", "v6"].map((name) => ({ name }))];
  assert.equal(weights(await put(path, input)), [
    ["fixed", 900],
    ["v1", 17],
    ["v2", 17],
    ["v3", 17],
    ["v4", 17],
    ["v5", 16],
    ["v6", 16],
  ]);
});

test("weights: fix 600 and fix 350 leave 50 for the variable one", async () => {
  const path = await freshFeature();
  const stored = await put(path, [
    { name: "x", weightType: "fix", weight: 600 },
    { name: "y", weightType: "fix", weight: 350 },
    { name: "z", weight: 999 },
  ]);
  assert.equal(weights(stored), [
    ["x", 600],
    ["y", 350],
    ["z", 50],
  ]);
});

test("weights: fix 900 and fix 100 leave 0 for each of 2 variable ones", async () => {
  const path = await freshFeature();
  const stored = await put(path, [
    { name: "a", weightType: "fix", weight: 900 },
    { name: "b", weightType: "fix", weight: 100 },
    { name: "c" },
    { name: "d" },
  ]);
  assert.equal(weights(stored), [
    ["a", 900],
    ["b", 100],
    ["c", 0],
    ["d", 0],
  ]);
});

test("weights: fix weights over 1000 are a ValidationError and nothing changes", async () => {
  const path = await freshFeature();
  await put(path, [{ name: "keep" }]);
  const before = await snapshot();
  const error = await rejects(
    put(path, [{ name: "a", weightType: "fix", weight: 600 }, { name: "b", weightType: "fix", weight: 401 }, { name: "c" }]),
    ValidationError,
  );
  assert.match(error.message, /add up to 1001, more than 1000/);
  assert.equal(await snapshot(), before);
});

test("weights: only fix variants are a ValidationError and nothing changes", async () => {
  const path = await freshFeature();
  const before = await snapshot();
  const error = await rejects(put(path, [{ name: "a", weightType: "fix", weight: 1000 }]), ValidationError);
  assert.match(error.message, /There must be at least one "variable" variant/);
  assert.equal(error.details, [{ path: "variants", message: 'There must be at least one "variable" variant' }]);
  assert.equal(await snapshot(), before);
});

test("variants are sorted by name (code point order)", async () => {
  const path = await freshFeature();
  const stored = await put(
    path,
    ["beta", "Zulu", "alpha", "_x", "a-1", "10", "9"].map((name) => ({ name })),
  );
  assert.equal(
    stored.map((v) => v.name),
    ["10", "9", "Zulu", "_x", "a-1", "alpha", "beta"],
  );
  assert.equal(
    (await featureEnvironmentVariants(db, path)).map((v) => v.name),
    stored.map((v) => v.name),
  );
});

test("payloads: string, csv, JSON that parses and numbers are kept", async () => {
  const path = await freshFeature();
  const payloads = [
    { type: "string", value: "" },
    { type: "csv", value: "a,b\nc,d" },
    { type: "json", value: '{"color": "blue", "n": [1, 2]}' },
    { type: "number", value: "-12.5e3" },
  ];
  const stored = await put(
    path,
    payloads.map((payload, i) => ({ name: `p${i}`, payload })),
  );
  assert.equal(
    stored.map((v) => v.payload),
    payloads,
  );
  const overrides = [{ contextName: "userId", values: ["1", "2"] }];
  const [withOverrides] = await put(path, [{ name: "o", stickiness: "userId", overrides }]);
  assert.equal([withOverrides?.stickiness, withOverrides?.overrides], ["userId", overrides]);
});

// Each entry breaks one rule of docs/flag-model.md#variants; the detail path names the offending field.
const invalid: [string, unknown, string][] = [
  ["a body that is not an array", { name: "a" }, "variants"],
  ["a variant that is not an object", ["a"], "variants.0"],
  ["a missing name", [{}], "variants.0.name"],
  ["an empty name", [{ name: "" }], "variants.0.name"],
  ["a name that needs URL encoding", [{ name: "a b" }], "variants.0.name"],
  ["a name with a slash", [{ name: "a/b" }], "variants.0.name"],
  ['the name "."', [{ name: "." }], "variants.0.name"],
  ['the name ".."', [{ name: ".." }], "variants.0.name"],
  ["a name of 101 characters", [{ name: "n".repeat(101) }], "variants.0.name"],
  ["a name that is not a string", [{ name: 5 }], "variants.0.name"],
  ["a name used twice", [{ name: "a" }, { name: "b" }, { name: "a" }], "variants.2.name"],
  ["a weight that is not an integer", [{ name: "a", weight: 12.5 }], "variants.0.weight"],
  ["a negative weight", [{ name: "a", weight: -1 }], "variants.0.weight"],
  ["a weight over 1000", [{ name: "a", weight: 1001 }], "variants.0.weight"],
  ["a weight that is a string", [{ name: "a", weight: "100" }], "variants.0.weight"],
  ["an unknown weightType", [{ name: "a", weightType: "fixed" }], "variants.0.weightType"],
  ['a "fix" variant without a weight', [{ name: "f", weightType: "fix" }, { name: "v" }], "variants.0.weight"],
  ["a stickiness that is not a string", [{ name: "a", stickiness: 1 }], "variants.0.stickiness"],
  ["an empty stickiness", [{ name: "a", stickiness: "" }], "variants.0.stickiness"],
  ["an unknown payload type", [{ name: "a", payload: { type: "xml", value: "<a/>" } }], "variants.0.payload.type"],
  ["a payload without a value", [{ name: "a", payload: { type: "string" } }], "variants.0.payload.value"],
  ["a payload value that is not a string", [{ name: "a", payload: { type: "number", value: 5 } }], "variants.0.payload.value"],
  ["a JSON payload that does not parse", [{ name: "a", payload: { type: "json", value: "{nope" } }], "variants.0.payload.value"],
  ["a number payload that is not a number", [{ name: "a", payload: { type: "number", value: "12abc" } }], "variants.0.payload.value"],
  ["a hexadecimal number payload", [{ name: "a", payload: { type: "number", value: "0x1f" } }], "variants.0.payload.value"],
  ["an unknown payload field", [{ name: "a", payload: { type: "string", value: "x", extra: 1 } }], "variants.0.payload"],
  ["overrides that are not an array", [{ name: "a", overrides: {} }], "variants.0.overrides"],
  ["an override without contextName", [{ name: "a", overrides: [{ values: ["1"] }] }], "variants.0.overrides.0.contextName"],
  [
    "override values that are not strings",
    [{ name: "a", overrides: [{ contextName: "userId", values: [1] }] }],
    "variants.0.overrides.0.values.0",
  ],
  ["an unknown override field", [{ name: "a", overrides: [{ contextName: "u", values: [], x: 1 }] }], "variants.0.overrides.0"],
  ["an unknown variant field", [{ name: "a", colour: "blue" }], "variants.0"],
];

for (const [rule, body, detailPath] of invalid) {
  test(`PUT refuses ${rule} with a ValidationError, and nothing changes`, async () => {
    const path = { projectId: "default", featureName: "checkout", environment: "production" };
    await put(path, [{ name: "before" }]);
    const before = await snapshot();
    const error = await rejects(put(path, body), ValidationError);
    assert.ok(
      error.details.some((d) => d.path === detailPath),
      `expected a detail at ${detailPath}, got ${JSON.stringify(error.details)}`,
    );
    assert.equal(await snapshot(), before);
  });
}

test("an empty array clears the variants", async () => {
  const path = await freshFeature();
  await put(path, [{ name: "a" }]);
  assert.equal(await put(path, []), []);
  assert.equal(await featureEnvironmentVariants(db, path), []);
});

test("the event records the variants before and after, with actor, project, environment and feature", async () => {
  const path = await freshFeature();
  const first = await put(path, [{ name: "a" }]);
  const second = await put(path, [{ name: "b" }, { name: "a" }]);
  const events = await db
    .selectFrom("events")
    .selectAll()
    .where("type", "=", "feature-environment-variants-updated")
    .where("feature_name", "=", path.featureName)
    .orderBy("id")
    .execute();
  assert.equal(
    events.map((e) => [e.created_by, e.created_by_user_id, e.project, e.environment, e.data, e.pre_data]),
    [
      ["carol", 4, "default", "production", first, []],
      ["carol", 4, "default", "production", second, first],
    ],
  );
});

test("variants of one environment never change another's", async () => {
  const path = await freshFeature();
  const development = { ...path, environment: "development" };
  await put(development, [{ name: "dev-only" }]);
  await put(path, [{ name: "prod-a" }, { name: "prod-b" }]);
  await put(path, []);
  assert.equal(
    (await featureEnvironmentVariants(db, development)).map((v) => v.name),
    ["dev-only"],
  );
  assert.equal(await featureEnvironmentVariants(db, path), []);
});

const missing: [string, FeatureEnvironmentPath, string][] = [
  ["an unknown project", { projectId: "ghost", featureName: "checkout", environment: "production" }, 'The project "ghost" does not exist.'],
  [
    "a feature of another project",
    { projectId: "other", featureName: "checkout", environment: "production" },
    'The feature "checkout" does not exist in the project "other".',
  ],
  [
    "an unknown feature",
    { projectId: "default", featureName: "nothing", environment: "production" },
    'The feature "nothing" does not exist in the project "default".',
  ],
  [
    "an unknown environment",
    { projectId: "default", featureName: "checkout", environment: "moon" },
    'The environment "moon" does not exist.',
  ],
  [
    "an environment not enabled in the project",
    { projectId: "default", featureName: "checkout", environment: "staging" },
    'The environment "staging" is not enabled in the project "default".',
  ],
];

for (const [what, path, message] of missing) {
  test(`read and write of ${what} are NotFoundError saying so, and the write changes nothing`, async () => {
    const read = await rejects(featureEnvironmentVariants(db, path), NotFoundError);
    assert.is(read.message, message);
    const before = await snapshot();
    const written = await rejects(put(path, [{ name: "a" }]), NotFoundError);
    assert.is(written.message, message);
    assert.equal(await snapshot(), before);
  });
}

test("reads that arrive together share a query, and each gets its own answer or its own NotFoundError", async () => {
  const a = await freshFeature();
  const b = await freshFeature();
  await put(a, [{ name: "a-only" }]);
  await put({ ...b, environment: "development" }, [{ name: "b-dev" }]);
  const paths = [a, ...missing.map(([, path]) => path), { ...b, environment: "development" }, b];
  // Its own Kysely instance (so its own batches), counting the queries that reach Postgres.
  let queries = 0;
  const counted = db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      queries++;
      return args.result;
    },
  });
  const one = async (path: FeatureEnvironmentPath) =>
    featureEnvironmentVariants(counted, path).then(
      (variants) => variants.map((v) => v.name).join(","),
      (error: Error) => `${error.name}: ${error.message}`,
    );
  const alone: string[] = [];
  for (const path of paths) alone.push(await one(path));
  assert.is(queries, paths.length, "one by one, one query each");
  assert.equal(alone.slice(0, 1).concat(alone.slice(-2)), ["a-only", "b-dev", ""], "the reads themselves are right");
  assert.equal(
    alone.slice(1, -2),
    missing.map(([, , message]) => `NotFoundError: ${message}`),
  );
  // Twice over, in two orders, all at once.
  const rotated = (list: unknown[]) => [...list.slice(3), ...list.slice(0, 3)];
  queries = 0;
  const together = await Promise.all([...paths, ...rotated(paths)].map((path) => one(path as FeatureEnvironmentPath)));
  assert.equal(together, [...alone, ...rotated(alone)]);
  assert.is(queries, 1, "all at once, one query");
});

test("a write with both a bad body and a bad path is the ValidationError: the schema is checked first", async () => {
  await rejects(put({ projectId: "ghost", featureName: "x", environment: "y" }, [{ name: "a b" }]), ValidationError);
});

test.after(() => testDb.close());

test.run();
