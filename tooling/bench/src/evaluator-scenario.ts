// The evaluator scenario (BENCH_ONLY=evaluator): the frontend evaluators alone, in this process,
// no server. A million (flag, context) pairs, a new user per context, over the frontend
// scenario's 1,000 flags (a gradual rollout by userId, half of them constrained to plans, two
// variants each), evaluated by the SDK's evaluator (unleash-client, the reference) and by the
// compiled one (docs/evaluation.md); each figure the median of its rounds, taken in turns.
import { loadavg } from "node:os";
import { type ClientFeature, type ClientFeatureSet, createCompiledEvaluator, createFrontendEvaluator } from "@vexil/services";

const FLAGS = 1_000;
const CONTEXTS = 1_000;

/** The flags of frontend-flags.ts, as the client API serves them. */
function frontendSet(): ClientFeatureSet {
  const variants = [
    { name: "control", weight: 500, weightType: "variable" as const, stickiness: "default", overrides: [] },
    {
      name: "treatment",
      weight: 500,
      weightType: "variable" as const,
      stickiness: "default",
      payload: { type: "json" as const, value: '{"color":"blue"}' },
      overrides: [],
    },
  ];
  const plans = { contextName: "plan", operator: "IN" as const, values: ["pro", "team"], inverted: false, caseInsensitive: false };
  const features: ClientFeature[] = Array.from({ length: FLAGS }, (_, i) => {
    const name = `web-${String(i + 1).padStart(6, "0")}`;
    return {
      name,
      type: "release",
      description: null,
      project: "bench-frontend",
      enabled: true,
      stale: false,
      impressionData: false,
      strategies: [
        {
          id: `bench-web-${i + 1}`,
          name: "flexibleRollout",
          sortOrder: 0,
          constraints: (i + 1) % 2 === 0 ? [plans] : [],
          parameters: { rollout: "50", stickiness: "userId", groupId: name },
          variants: [],
          segments: [],
        },
      ],
      variants,
    };
  });
  return { environment: "development", features, segments: [], revisionId: 1 };
}

const context = () => ({ userId: `u${Math.floor(Math.random() * 1e9)}`, appName: "bench-web", properties: { plan: "pro" } });

/** Pairs per second of `contexts` contexts over every flag, through `evaluate` (the frontend API's call). */
function measure(evaluate: (c: ReturnType<typeof context>) => unknown[], contexts: number): number {
  const started = performance.now();
  let on = 0;
  for (let i = 0; i < contexts; i++) on += evaluate(context()).length;
  const seconds = (performance.now() - started) / 1000;
  return on >= 0 ? (contexts * FLAGS) / seconds : 0;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export function runEvaluatorScenario(rounds: number, log: (line: string) => void): void {
  const set = frontendSet();
  let started = performance.now();
  const sdk = createFrontendEvaluator(set);
  const sdkBuildMs = performance.now() - started;
  started = performance.now();
  const compiled = createCompiledEvaluator(set);
  const compiledBuildMs = performance.now() - started;
  // The same answers for the bench's own contexts, first: a ratio between different answers means nothing.
  for (let i = 0; i < 200; i++) {
    const c = context();
    if (JSON.stringify(sdk.evaluate(c)) !== JSON.stringify(compiled.evaluate(c)))
      throw new Error(`the evaluators disagree for ${JSON.stringify(c)}`);
  }
  log(
    `evaluator: ${FLAGS} flags, built in ${sdkBuildMs.toFixed(1)} ms (SDK) and ${compiledBuildMs.toFixed(1)} ms (compiled); same answers for 200 contexts`,
  );
  measure((c) => sdk.evaluate(c), CONTEXTS / 4);
  measure((c) => compiled.evaluate(c), CONTEXTS);
  const sdkRates: number[] = [];
  const compiledRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    sdkRates.push(measure((c) => sdk.evaluate(c), CONTEXTS));
    compiledRates.push(measure((c) => compiled.evaluate(c), CONTEXTS));
    log(`round ${round + 1}: SDK ${sdkRates[round]?.toFixed(0)} pairs/s, compiled ${compiledRates[round]?.toFixed(0)} pairs/s`);
  }
  const sdkRate = median(sdkRates);
  const compiledRate = median(compiledRates);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(
    [
      "",
      `evaluator: ${CONTEXTS * FLAGS} (flag, context) pairs per round (${CONTEXTS} new users x ${FLAGS} flags), median of ${rounds} rounds; load average ${load}`,
      `  SDK evaluator (unleash-client):  ${sdkRate.toFixed(0)} pairs/s`,
      `  compiled evaluator:              ${compiledRate.toFixed(0)} pairs/s`,
      `  ratio: ${(compiledRate / sdkRate).toFixed(2)}x`,
    ].join("\n"),
  );
}
