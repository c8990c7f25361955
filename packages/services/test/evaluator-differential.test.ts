import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ClientFeatureSet, ClientStrategy } from "../src/client-features/client-feature.ts";
import { createCompiledEvaluator } from "../src/compiled-evaluation/compiled-evaluator.ts";
import { compileStrategy } from "../src/compiled-evaluation/compiled-strategy.ts";
import { type FrontendContext, frontendContextSchema } from "../src/frontend-evaluation/frontend-context.ts";
import { createFrontendEvaluator, type FrontendEvaluator } from "../src/frontend-evaluation/frontend-evaluator.ts";
import { clientFeature, clientStrategy } from "./support/client-flags.ts";
import { generatedContext, generatedSet, seeded } from "./support/generated-flags.ts";

// The compiled evaluator against the SDK's, its reference (docs/evaluation.md#the-differential-test):
// every case of @unleash/client-specification and 100,000 generated (flag, context) pairs give the
// same answers. Random draws are compared per call with Math.random pinned to one value for both
// evaluators (so the number and order of draws cannot matter), and their spread with the real one.

const random = Math.random;
/** Both evaluators' answers for one context with Math.random pinned to `draw`: the list, every flag, and one flag by name. */
function answers(evaluator: FrontendEvaluator, context: FrontendContext, draw: number, name: string): unknown {
  Math.random = () => draw;
  try {
    return {
      list: evaluator.evaluate(context),
      body: evaluator.evaluateJson(context),
      bytes: evaluator.evaluateBody(context).toString("base64"),
      every: evaluator.evaluateEvery(context),
      one: evaluator.evaluateFlag(name, context) ?? null,
    };
  } catch (error) {
    return { threw: String(error) };
  } finally {
    Math.random = random;
  }
}

const DRAWS = [0, 0.004, 0.37, 0.5, 0.731, 0.999999];

const SPEC_DIR = join(dirname(createRequire(import.meta.url).resolve("@unleash/client-specification/package.json")), "specifications");
// 19 and 20 are the delta API's events, not evaluation.
const SPEC_FILES = readdirSync(SPEC_DIR).filter((f) => /^\d\d-.*\.json$/.test(f) && !/^(19|20)-/.test(f));

interface SpecCase {
  context: Record<string, unknown>;
  toggleName: string;
}

test("every case of the client specification: the compiled evaluator answers as the SDK's", () => {
  let cases = 0;
  for (const file of SPEC_FILES) {
    const spec = JSON.parse(readFileSync(join(SPEC_DIR, file), "utf8")) as {
      state: { features: unknown[]; segments?: unknown[] };
      tests?: SpecCase[];
      variantTests?: SpecCase[];
    };
    const set = {
      environment: "development",
      features: spec.state.features,
      segments: spec.state.segments ?? [],
      revisionId: 1,
    } as ClientFeatureSet;
    const reference = createFrontendEvaluator(set);
    const compiled = createCompiledEvaluator(set);
    for (const c of [...(spec.tests ?? []), ...(spec.variantTests ?? [])]) {
      // As the frontend API reads a context: the cases' contexts all pass its schema.
      const context = frontendContextSchema.parse(c.context);
      for (const draw of DRAWS) {
        const expected = answers(reference, context, draw, c.toggleName);
        assert.equal(
          answers(compiled, context, draw, c.toggleName),
          expected,
          `${file}: ${c.toggleName} ${JSON.stringify(c.context)} draw ${draw}`,
        );
      }
      cases++;
    }
  }
  assert.ok(cases >= 275, `${cases} cases`);
});

test("100,000 generated (flag, context) pairs: the same answers, draws pinned", () => {
  const r = seeded(25);
  const FLAGS = 40;
  const CONTEXTS = 10;
  let pairs = 0;
  let on = 0;
  while (pairs < 100_000) {
    const set = generatedSet(r, FLAGS);
    const reference = createFrontendEvaluator(set);
    const compiled = createCompiledEvaluator(set);
    for (let i = 0; i < CONTEXTS; i++) {
      const context = generatedContext(r);
      const draw = r();
      const name = `flag-${Math.floor(r() * FLAGS)}`;
      const expected = answers(reference, context, draw, name);
      const actual = answers(compiled, context, draw, name);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        // The first difference, flag by flag, with its definition, to say what differs.
        const every = (expected as { every?: { name: string }[] }).every ?? [];
        const differing = every.findIndex((e, j) => JSON.stringify(e) !== JSON.stringify((actual as { every?: unknown[] }).every?.[j]));
        const flag = set.features[differing];
        assert.equal(
          actual,
          expected,
          `context ${JSON.stringify(context)} draw ${draw}\nflag ${JSON.stringify(flag)}\nsegments ${JSON.stringify(set.segments)}`,
        );
      }
      pairs += FLAGS;
      on += (expected as { list?: unknown[] }).list?.length ?? 0;
    }
  }
  // Enough of them on for the comparison to mean something, and enough off.
  assert.ok(on > pairs / 10 && on < (pairs * 9) / 10, `${on} of ${pairs} on`);
});

test("the generated flags take the flat loop and the closures both (docs/evaluation.md#the-flat-loop)", () => {
  const r = seeded(25);
  let planned = 0;
  let strategies = 0;
  let dataSteps = 0;
  let steps = 0;
  for (let round = 0; round < 50; round++) {
    const set = generatedSet(r, 40);
    const segments = new Map(set.segments.map((s) => [s.id, s]));
    for (const feature of set.features)
      for (const s of feature.strategies) {
        const compiled = compileStrategy(s, segments);
        strategies++;
        if (!compiled?.plan) continue;
        planned++;
        steps += compiled.plan.steps.length;
        dataSteps += compiled.plan.steps.filter((step) => step.check === undefined).length;
      }
  }
  // Both paths are compared above only if the generated strategies take both.
  assert.ok(planned > strategies / 10 && planned < (strategies * 9) / 10, `${planned} of ${strategies} strategies laid out as data`);
  assert.ok(dataSteps > steps / 20 && dataSteps < steps, `${dataSteps} of ${steps} constraints as data`);
});

// Flags written out by hand (support/client-flags.ts): a strategy by its parameters, a flag by its variants.
const strategy = (name: string, parameters: Record<string, string>) => clientStrategy(name, { parameters });
const variant = (name: string, weight: number, stickiness = "random", payload?: { type: "string" | "json"; value: string }) => ({
  name,
  weight,
  weightType: "variable" as const,
  stickiness,
  ...(payload ? { payload } : {}),
  overrides: [],
});
const feature = (name: string, strategies: ClientStrategy[], variants: ReturnType<typeof variant>[] = []) =>
  clientFeature(name, strategies, { variants });

test("an answer with text beyond ASCII: the same bytes, UTF-8, from both evaluators", () => {
  const withPayload = (name: string, payload: string) =>
    feature(name, [strategy("default", {})], [variant("v", 1000, "default", { type: "string", value: payload })]);
  for (const features of [
    [withPayload("plain", "ascii only")],
    [withPayload("plain", "ascii only"), withPayload("café", "thé ☕ \u{1f600}")],
  ]) {
    const set = { environment: "development", features, segments: [], revisionId: 1 } as ClientFeatureSet;
    const context = { userId: "u1" };
    const expected = Buffer.from(JSON.stringify({ toggles: createFrontendEvaluator(set).evaluate(context) }), "utf8");
    assert.equal(createFrontendEvaluator(set).evaluateBody(context).toString("hex"), expected.toString("hex"));
    assert.equal(createCompiledEvaluator(set).evaluateBody(context).toString("hex"), expected.toString("hex"));
  }
});

test("random draws with the real Math.random: the same spread for the random rollouts and random variants", () => {
  const set: ClientFeatureSet = {
    environment: "development",
    features: [
      feature("random-30", [strategy("gradualRolloutRandom", { percentage: "30" })]),
      feature("flexible-random-60", [strategy("flexibleRollout", { rollout: "60", stickiness: "random", groupId: "g" })]),
      feature("default-no-ids-40", [strategy("flexibleRollout", { rollout: "40", stickiness: "default", groupId: "g" })]),
      feature("variants-random", [], [variant("a", 200), variant("b", 800)]),
    ],
    segments: [],
    revisionId: 1,
  };
  const N = 20_000;
  const shares = (evaluator: FrontendEvaluator) => {
    const counts = new Map<string, number>();
    for (let i = 0; i < N; i++)
      for (const t of evaluator.evaluate({})) {
        const key = t.name === "variants-random" ? `${t.name}:${t.variant.name}` : t.name;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    return counts;
  };
  const reference = shares(createFrontendEvaluator(set));
  const compiled = shares(createCompiledEvaluator(set));
  const expected: Record<string, number> = {
    "random-30": 0.3,
    "flexible-random-60": 0.6,
    "default-no-ids-40": 0.4,
    "variants-random:a": 0.2,
    "variants-random:b": 0.8,
  };
  for (const [key, share] of Object.entries(expected)) {
    // 20,000 draws: a share is within 0.02 of its expectation but once in millions of runs (over 6 standard deviations).
    for (const [who, counts] of [
      ["SDK", reference],
      ["compiled", compiled],
    ] as const) {
      const seen = (counts.get(key) ?? 0) / N;
      assert.ok(Math.abs(seen - share) < 0.02, `${who} ${key}: ${seen} for ${share}`);
    }
  }
});

test.run();
