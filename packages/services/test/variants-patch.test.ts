import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createFeature,
  featureEnvironmentVariants,
  type JsonPatchOperation,
  NotFoundError,
  patchFeatureEnvironmentVariants,
  type Principal,
  replaceFeatureEnvironmentVariants,
  ValidationError,
} from "../src/index.ts";
import { applyJsonPatch, type FeatureEnvironmentPath } from "../src/testing.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db } = testDb;
const dave: Principal = { kind: "admin-token", tokenId: 3, tokenName: "deploy-bot" };

function throwsValidation(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    assert.instance(error, ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected a ValidationError");
}

let n = 0;
async function featureWith(variants: unknown[]): Promise<FeatureEnvironmentPath> {
  const featureName = `patched-${++n}`;
  await createFeature(db, null, "default", { name: featureName });
  const path = { projectId: "default", featureName, environment: "production" };
  await replaceFeatureEnvironmentVariants(db, dave, path, variants);
  return path;
}

const patch = (path: FeatureEnvironmentPath, ops: JsonPatchOperation[]) => patchFeatureEnvironmentVariants(db, dave, path, ops);

const snapshot = async () => ({
  rows: await db.selectFrom("feature_environments").selectAll().orderBy("feature_name").orderBy("environment_name").execute(),
  events: await db.selectFrom("events").select("id").orderBy("id").execute(),
});

// RFC 6902 appendix A, as far as it applies to plain JSON documents.
test("applyJsonPatch: the examples of RFC 6902 appendix A", () => {
  const cases: [unknown, JsonPatchOperation[], unknown][] = [
    [{ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }], { foo: "bar", baz: "qux" }],
    [{ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }], { foo: ["bar", "qux", "baz"] }],
    [{ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }], { foo: "bar" }],
    [{ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }], { foo: ["bar", "baz"] }],
    [{ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }], { baz: "boo", foo: "bar" }],
    [
      { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } },
      [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
      { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } },
    ],
    [{ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }], { foo: ["all", "cows", "eat", "grass"] }],
    [{ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }], { foo: "bar", child: { grandchild: {} } }],
    [{ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }], { foo: ["bar", ["abc", "def"]] }],
    [{ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }], { "/": 9, "~1": 10 }],
    [{ "/": 9 }, [{ op: "copy", from: "/~1", path: "/x" }], { "/": 9, x: 9 }],
    [[1, 2], [{ op: "replace", path: "", value: { whole: true } }], { whole: true }],
  ];
  for (const [document, ops, expected] of cases) {
    assert.equal(applyJsonPatch(document, ops), expected, JSON.stringify(ops));
  }
});

test("applyJsonPatch: a patch that cannot apply says which operation and why, and leaves the document alone", () => {
  const document = { foo: ["bar"], baz: "qux" };
  const failures: [JsonPatchOperation[], RegExp][] = [
    [[{ op: "add", path: "/baz/bat", value: "qux" }], /operation 0 .*"\/baz" is not an object or an array/],
    [[{ op: "test", path: "/baz", value: "bar" }], /the test failed/],
    [
      [
        { op: "test", path: "/foo", value: ["bar"] },
        { op: "remove", path: "/nope" },
      ],
      /operation 1 .*"\/nope" does not exist/,
    ],
    [[{ op: "replace", path: "/missing", value: 1 }], /"\/missing" does not exist/],
    [[{ op: "add", path: "/foo/2", value: 1 }], /does not exist: the array has 1 elements/],
    [[{ op: "add", path: "/foo/01", value: 1 }], /"01" .* is not an array index/],
    [[{ op: "remove", path: "/foo/-" }], /"-" .* is not an array index/],
    [[{ op: "add", path: "foo", value: 1 }], /"path" must be "" or start with "\/"/],
    [[{ op: "add", path: "/a~2", value: 1 }], /"~" not followed by 0 or 1/],
    [[{ op: "add", path: "/x" }], /"add" needs a "value"/],
    [[{ op: "move", from: "/foo", path: "/foo/0" }], /cannot be moved into one of its own children/],
    [[{ op: "copy", from: "/nothing", path: "/x" }], /"\/nothing" does not exist/],
    [[{ op: "remove", path: "" }], /the whole document cannot be removed/],
    [[{ op: "increment", path: "/x" } as unknown as JsonPatchOperation], /not an operation of RFC 6902/],
  ];
  for (const [ops, message] of failures) {
    const error = throwsValidation(() => applyJsonPatch(document, ops));
    assert.match(error.message, message);
    assert.match(error.details[0]?.path ?? "", /^patch\.\d$/);
  }
  assert.equal(document, { foo: ["bar"], baz: "qux" });
});

test("applyJsonPatch: at most 100 operations, and no result larger than 256 KiB, however it grows", () => {
  const many = Array.from({ length: 101 }, () => ({ op: "test" as const, path: "/a", value: 1 }));
  const tooMany = throwsValidation(() => applyJsonPatch({ a: 1 }, many));
  assert.is(tooMany.message, "A patch may have at most 100 operations; this one has 101.");
  assert.ok(applyJsonPatch({ a: 1 }, many.slice(1)));
  // The review's document bomb: each copy of the whole document into one of its members doubles it.
  const bomb = Array.from({ length: 30 }, (_, i) => ({ op: "copy" as const, from: "", path: i % 2 ? "/stale" : "/type" }));
  const document = { name: "dos", type: "release", stale: false };
  const grown = throwsValidation(() => applyJsonPatch(document, bomb));
  assert.match(
    grown.message,
    /^The patch cannot be applied: operation 1\d \(copy "\/(stale|type)"\): the document would be larger than 256 KiB\.$/,
  );
  assert.equal(document, { name: "dos", type: "release", stale: false });
  // Large values added one after another count too; replacing one value again and again does not add up.
  const big = "x".repeat(100 * 1024);
  const added = throwsValidation(() =>
    applyJsonPatch(
      {},
      ["/a", "/b", "/c"].map((path) => ({ op: "add", path, value: big })),
    ),
  );
  assert.match(added.message, /operation 2 \(add "\/c"\): the document would be larger than 256 KiB/);
  const replaced = applyJsonPatch(
    { a: "" },
    Array.from({ length: 5 }, () => ({ op: "replace" as const, path: "/a", value: big })),
  );
  assert.equal(replaced, { a: big });
});

test('applyJsonPatch: a member named "__proto__" stays a plain member', () => {
  const result = applyJsonPatch({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]) as Record<string, unknown>;
  assert.ok(Object.hasOwn(result, "__proto__"));
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(Object.getPrototypeOf(result), Object.prototype);
});

test("PATCH add appends a variant and the weights are normalised again", async () => {
  const path = await featureWith([{ name: "a" }, { name: "b" }]);
  const stored = await patch(path, [{ op: "add", path: "/-", value: { name: "c" } }]);
  assert.equal(
    stored.map((v) => [v.name, v.weight]),
    [
      ["a", 334],
      ["b", 333],
      ["c", 333],
    ],
  );
  assert.equal(await featureEnvironmentVariants(db, path), stored);
});

test("PATCH replace changes a field of the variant at an index of the sorted list", async () => {
  const path = await featureWith([{ name: "b" }, { name: "a" }]);
  const stored = await patch(path, [
    { op: "replace", path: "/0/weightType", value: "fix" },
    { op: "replace", path: "/0/weight", value: 700 },
    { op: "add", path: "/1/payload", value: { type: "json", value: "[1]" } },
  ]);
  assert.equal(
    stored.map((v) => [v.name, v.weightType, v.weight, v.payload]),
    [
      ["a", "fix", 700, undefined],
      ["b", "variable", 300, { type: "json", value: "[1]" }],
    ],
  );
});

test("PATCH remove takes a variant out; removing the last one leaves []", async () => {
  const path = await featureWith([{ name: "a" }, { name: "b" }]);
  assert.equal(
    (await patch(path, [{ op: "remove", path: "/0" }])).map((v) => [v.name, v.weight]),
    [["b", 1000]],
  );
  assert.equal(await patch(path, [{ op: "remove", path: "/0" }]), []);
});

test("PATCH test guards the other operations: a failed test changes nothing", async () => {
  const path = await featureWith([{ name: "a" }]);
  const done = await patch(path, [
    { op: "test", path: "/0/name", value: "a" },
    { op: "replace", path: "/0/name", value: "renamed" },
  ]);
  assert.equal(
    done.map((v) => v.name),
    ["renamed"],
  );
  const before = await snapshot();
  const error = await rejects(
    patch(path, [
      { op: "test", path: "/0/name", value: "a" },
      { op: "replace", path: "/0/name", value: "again" },
    ]),
    ValidationError,
  );
  assert.match(error.message, /^The patch cannot be applied: operation 0 \(test "\/0\/name"\): the test failed/);
  assert.equal(await snapshot(), before);
});

test("PATCH move and copy", async () => {
  const path = await featureWith([{ name: "a", stickiness: "userId" }, { name: "b" }]);
  const stored = await patch(path, [
    { op: "copy", from: "/0", path: "/-" },
    { op: "replace", path: "/2/name", value: "c" },
    { op: "move", from: "/0/stickiness", path: "/1/stickiness" },
  ]);
  assert.equal(
    stored.map((v) => [v.name, v.stickiness]),
    [
      ["a", "default"],
      ["b", "userId"],
      ["c", "userId"],
    ],
  );
});

test("a patched result is validated like a PUT: a rule it breaks is a ValidationError and nothing changes", async () => {
  const path = await featureWith([{ name: "a" }, { name: "b" }]);
  const before = await snapshot();
  const cases: [JsonPatchOperation[], string][] = [
    [[{ op: "replace", path: "/1/name", value: "a" }], "variants.1.name"],
    [[{ op: "replace", path: "/0/weight", value: 2000 }], "variants.0.weight"],
    [[{ op: "add", path: "/0/colour", value: "blue" }], "variants.0"],
    [[{ op: "replace", path: "/0/name", value: "a b" }], "variants.0.name"],
    [[{ op: "replace", path: "", value: { not: "an array" } }], "variants"],
    [
      [
        { op: "replace", path: "/0/weightType", value: "fix" },
        { op: "replace", path: "/1/weightType", value: "fix" },
      ],
      "variants",
    ],
    [[{ op: "add", path: "/-", value: { name: "c", payload: { type: "number", value: "one" } } }], "variants.2.payload.value"],
  ];
  for (const [ops, detailPath] of cases) {
    const error = await rejects(patch(path, ops), ValidationError);
    assert.match(error.message, /^The variants after the patch are not valid/);
    assert.ok(
      error.details.some((d) => d.path === detailPath),
      `${JSON.stringify(ops)}: ${JSON.stringify(error.details)}`,
    );
  }
  const unapplicable = await rejects(patch(path, [{ op: "remove", path: "/5" }]), ValidationError);
  assert.match(unapplicable.message, /^The patch cannot be applied/);
  assert.equal(await snapshot(), before);
});

test("PATCH on a path that does not exist is NotFoundError", async () => {
  const error = await rejects(
    patch({ projectId: "default", featureName: "nope", environment: "production" }, [{ op: "add", path: "/-", value: { name: "a" } }]),
    NotFoundError,
  );
  assert.is(error.message, 'The feature "nope" does not exist in the project "default".');
});

test("an empty patch stores the variants as they are, with an event", async () => {
  const path = await featureWith([{ name: "a" }]);
  const before = await featureEnvironmentVariants(db, path);
  assert.equal(await patch(path, []), before);
});

test("concurrent patches of one feature queue: none of them is lost", async () => {
  const path = await featureWith([]);
  const names = Array.from({ length: 12 }, (_, i) => `v${String(i).padStart(2, "0")}`);
  await Promise.all(names.map((name) => patch(path, [{ op: "add", path: "/-", value: { name } }])));
  assert.equal(
    (await featureEnvironmentVariants(db, path)).map((v) => v.name),
    names,
  );
});

test.after(() => testDb.close());

test.run();
