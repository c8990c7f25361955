import { test } from "uvu";
import * as assert from "uvu/assert";
import { frontendContextSchema, plainFrontendContext } from "../src/frontend-evaluation/frontend-context.ts";

// plainFrontendContext reads a poll's context without zod (docs/sdk-protocols.md#poll-etags): for
// every input it answers, the schema must answer the same; where it gives up, the schema decides.

const long = (n: number) => "x".repeat(n);
const manyProperties = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, "v"]));

const EDGES: unknown[] = [
  {},
  { userId: "u1", appName: "web", properties: { plan: "pro" } },
  { userId: "", sessionId: "", remoteAddress: "10.0.0.1", environment: "production" },
  { userId: long(1000) },
  { userId: long(1001) },
  { currentTime: "2026-01-01T00:00:00.000Z" },
  { currentTime: "" },
  { currentTime: "not a date" },
  { properties: {} },
  { properties: { n: 3, b: true, f: false, z: null, s: "" } },
  { properties: { [long(100)]: "v" } },
  { properties: { [long(101)]: "v" } },
  { properties: { "": "v" } },
  { properties: manyProperties(100) },
  { properties: manyProperties(101) },
  { properties: { nested: { a: 1 } } },
  { properties: { list: ["a"] } },
  { properties: { big: long(1001) } },
  { properties: ["a"] },
  { properties: null },
  { properties: "plan=pro" },
  { userId: 42 },
  { userId: null },
  { userId: undefined },
  { plan: "pro" },
  { targetingKey: "u1" },
  [],
  null,
  "u1",
  JSON.parse('{"properties": {"__proto__": "x"}}'),
  Object.create({ userId: "inherited" }),
];

/** A seeded stream of contexts mixing the edges' parts, so that combinations are tried too. */
function* generated(count: number): Generator<unknown> {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const values = ["", "u1", long(1000), long(1001), 7, true, null, "2026-05-01", "soon"];
  const names = ["userId", "sessionId", "remoteAddress", "appName", "environment", "currentTime", "properties", "other"];
  for (let i = 0; i < count; i++) {
    const context: Record<string, unknown> = {};
    for (let n = Math.floor(next() * 4); n > 0; n--) {
      const name = pick(names);
      context[name] = name === "properties" ? Object.fromEntries([[pick(["plan", "", long(101)]), pick(values)]]) : pick(values);
    }
    yield context;
  }
}

test("every context it reads is what the schema reads, and every plain one it reads", () => {
  let read = 0;
  for (const input of [...EDGES, ...generated(2_000)]) {
    const plain = plainFrontendContext(input);
    const parsed = frontendContextSchema.safeParse(input);
    if (plain !== undefined) {
      read++;
      assert.ok(parsed.success, `read, but the schema refuses it: ${JSON.stringify(input)}`);
      assert.equal(plain, parsed.data, JSON.stringify(input));
    }
  }
  // The contexts browsers send are read without the schema.
  assert.ok(plainFrontendContext({ userId: "u1", appName: "web", properties: { plan: "pro" } }));
  assert.ok(read > 200, `only ${read} read`);
});

test.run();
