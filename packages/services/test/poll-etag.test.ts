import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ClientFeature, ClientFeatureSet, ClientStrategy } from "../src/client-features/client-feature.ts";
import { evaluationDependencies } from "../src/frontend-evaluation/evaluation-dependencies.ts";
import type { FrontendContext } from "../src/frontend-evaluation/frontend-context.ts";
import { createFrontendEvaluator } from "../src/frontend-evaluation/frontend-evaluator.ts";
import { pollEtag } from "../src/frontend-evaluation/poll-etag.ts";
import { clientFeature as feature, clientStrategy as strategy } from "./support/client-flags.ts";

// The poll ETag (docs/sdk-protocols.md#poll-etags) against the SDK's evaluator itself: contexts
// given one ETag get one answer.

const DAY = 86_400_000;
const NOW = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

const set = (features: ClientFeature[], segments: ClientFeatureSet["segments"] = []): ClientFeatureSet => ({
  environment: "development",
  features,
  segments,
  revisionId: 1,
});
const variant = (name: string, stickiness = "default", weight = 500) => ({
  name,
  weight,
  weightType: "variable" as const,
  stickiness,
  overrides: [],
});

const deterministic = set(
  [
    feature("by-user", [strategy("userWithId", { parameters: { userIds: "alice,bob" } })]),
    feature("by-plan", [
      strategy("default", {
        constraints: [{ contextName: "plan", operator: "IN", values: ["pro"], inverted: false, caseInsensitive: false }],
      }),
    ]),
    feature("by-tenant", [strategy("flexibleRollout", { parameters: { rollout: "50", stickiness: "tenant", groupId: "t" } })]),
    feature("by-address", [strategy("remoteAddress", { parameters: { IPs: "192.0.2.0/24" } })]),
    feature("by-segment", [strategy("default", { segments: [7] })]),
    feature("split", [strategy("flexibleRollout", { parameters: { rollout: "100", stickiness: "default", groupId: "s" } })], {
      variants: [{ ...variant("a", "userId"), overrides: [{ contextName: "country", values: ["NO"] }] }, variant("b", "userId")],
    }),
    feature("launch", [
      strategy("default", {
        constraints: [
          { contextName: "currentTime", operator: "DATE_AFTER", value: iso(NOW + DAY), inverted: false, caseInsensitive: false },
        ],
      }),
    ]),
    feature("child", [], { dependencies: [{ feature: "by-user", enabled: true, variants: [] }] }),
    feature("custom", [strategy("myOwnStrategy")]),
    feature("off", [strategy("gradualRolloutRandom", { parameters: { percentage: "50" } })], { enabled: false }),
  ],
  [
    {
      id: 7,
      name: "europe",
      constraints: [{ contextName: "region", operator: "IN", values: ["eu"], inverted: false, caseInsensitive: false }],
    },
  ],
);

const contexts: FrontendContext[] = [];
const propertySets: (Record<string, string> | undefined)[] = [
  undefined,
  { plan: "pro" },
  { plan: "free", tenant: "t1" },
  { region: "eu", colour: "red" },
  { country: "NO" },
];
for (const userId of [undefined, "alice", "carol"])
  for (const sessionId of [undefined, "s1"])
    for (const remoteAddress of [undefined, "192.0.2.4", "198.51.100.1"])
      for (const properties of propertySets)
        for (const currentTime of [undefined, iso(NOW + 2 * DAY), iso(NOW + DAY / 2)])
          contexts.push({
            ...(userId ? { userId } : {}),
            ...(sessionId ? { sessionId } : {}),
            ...(remoteAddress ? { remoteAddress } : {}),
            ...(properties ? { properties } : {}),
            ...(currentTime ? { currentTime } : {}),
          });

test("what a snapshot's answers depend on: the names its switched-on flags read, its date boundaries, its draws", () => {
  const deps = evaluationDependencies(deterministic);
  assert.equal(deps.reads, ["country", "plan", "region", "remoteAddress", "tenant", "userId"]);
  assert.equal(deps.dateBoundaries, [NOW + DAY]);
  // "split" picks its variant by userId: without one, the SDK draws.
  assert.equal(deps.draws, [{ name: "userId" }]);
});

test("contexts with one poll ETag get one answer from the SDK's evaluator, and the ETag tells apart what it reads", () => {
  const deps = evaluationDependencies(deterministic);
  const evaluator = createFrontendEvaluator(deterministic);
  const answers = new Map<string, string>();
  for (const context of contexts) {
    const etag = pollEtag(deps, context, "frontend", NOW);
    assert.is(etag === undefined, context.userId === undefined, JSON.stringify(context));
    if (etag === undefined) continue;
    const answer = JSON.stringify([evaluator.evaluate(context), evaluator.evaluateEvery(context)]);
    const seen = answers.get(etag);
    if (seen === undefined) answers.set(etag, answer);
    else assert.is(answer, seen, JSON.stringify(context));
  }
  // Fewer ETags than contexts with a userId: a sessionId and the colour are read by no flag.
  assert.ok(answers.size < contexts.length / 4, `${answers.size} ETags for ${(contexts.length * 2) / 3} contexts`);
  const base = { userId: "alice", properties: { plan: "pro" } };
  assert.is(pollEtag(deps, { ...base, sessionId: "x" }, "frontend", NOW), pollEtag(deps, base, "frontend", NOW));
  assert.is.not(pollEtag(deps, { ...base, userId: "bob" }, "frontend", NOW), pollEtag(deps, base, "frontend", NOW));
  assert.is.not(pollEtag(deps, base, "ofrep", NOW), pollEtag(deps, base, "frontend", NOW), "another kind of answer");
  // Without a currentTime the time is now: on its side of the boundary until the boundary passes.
  assert.is(pollEtag(deps, base, "frontend", NOW), pollEtag(deps, { ...base, currentTime: iso(NOW + 1000) }, "frontend", NOW));
  assert.is.not(pollEtag(deps, base, "frontend", NOW + 2 * DAY), pollEtag(deps, base, "frontend", NOW));
});

test("a change no answer shows keeps the digest; one an answer shows changes it", () => {
  const digest = evaluationDependencies(deterministic).digest;
  const changed = (features: ClientFeature[]) => evaluationDependencies(set(features, deterministic.segments)).digest;
  const [first, ...rest] = deterministic.features as [ClientFeature, ...ClientFeature[]];
  assert.is(changed([{ ...first, description: "new", stale: true }, ...rest]), digest);
  const off = rest.at(-1) as ClientFeature;
  assert.is(changed([first, ...rest.slice(0, -1), { ...off, strategies: [] }]), digest, "a switched-off flag's strategies");
  assert.is.not(changed([{ ...first, impressionData: true }, ...rest]), digest);
  assert.is.not(changed([first, ...rest.slice(0, -1), { ...off, enabled: true }]), digest);
});

test("draws: random stickiness always, default stickiness without userId or sessionId, a named one without its value; a fixed rollout never", () => {
  const draws = (strategies: ClientStrategy[], over: Partial<ClientFeature> = {}) =>
    evaluationDependencies(set([feature("f", strategies, over)]));
  const rollout = (rollout: string, stickiness: string) =>
    strategy("flexibleRollout", { parameters: { rollout, stickiness, groupId: "g" } });
  assert.is(pollEtag(draws([rollout("50", "random")]), { userId: "u" }, "x"), undefined);
  assert.is(pollEtag(draws([strategy("gradualRolloutRandom", { parameters: { percentage: "30" } })]), { userId: "u" }, "x"), undefined);
  assert.type(pollEtag(draws([rollout("100", "random")]), {}, "x"), "string", "100% holds whatever the draw");
  assert.type(pollEtag(draws([rollout("0", "default")]), {}, "x"), "string", "0% holds for no one");
  const byDefault = draws([rollout("50", "default")]);
  assert.is(pollEtag(byDefault, {}, "x"), undefined);
  assert.is(pollEtag(byDefault, { properties: { userId: "u" } }, "x"), undefined, "a property is not the field");
  assert.type(pollEtag(byDefault, { userId: "u" }, "x"), "string");
  assert.type(pollEtag(byDefault, { sessionId: "s" }, "x"), "string");
  // The flag's own variants: default stickiness falls back to the address too; one variant is no draw.
  const split = draws([], { variants: [variant("a"), variant("b")] });
  assert.is(pollEtag(split, {}, "x"), undefined);
  assert.type(pollEtag(split, { remoteAddress: "192.0.2.1" }, "x"), "string");
  assert.type(pollEtag(draws([], { variants: [variant("only", "default", 1000)] }), {}, "x"), "string");
  const named = draws([], { variants: [variant("a", "tenant"), variant("b", "tenant")] });
  assert.is(pollEtag(named, {}, "x"), undefined);
  assert.type(pollEtag(named, { properties: { tenant: "t1" } }, "x"), "string");
  // A strategy that answers by the instance's host name is drawn for: instances may differ.
  assert.is(pollEtag(draws([strategy("applicationHostname", { parameters: { hostNames: "a" } })]), {}, "x"), undefined);
});

test.run();
