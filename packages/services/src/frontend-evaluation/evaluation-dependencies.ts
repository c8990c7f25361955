import { createHash } from "node:crypto";
import type { ClientFeatureSet, ClientStrategy } from "../client-features/client-feature.ts";
import type { Constraint } from "../strategies/constraint.ts";
import { SDK_STRATEGY_NAMES } from "./frontend-evaluator.ts";

/**
 * A random draw of the evaluator, made unless the context has a value that stands in for it: any
 * of `fields` at the context's top (a `default` stickiness), or `name` as a constraint reads it (a
 * named stickiness). A draw with neither is always made.
 */
export interface RandomDraw {
  fields?: readonly string[];
  name?: string;
}

/**
 * What the evaluator's answers over one snapshot depend on besides the context's values, found
 * once per snapshot (docs/sdk-protocols.md#poll-etags): the answer for a context is a function of
 * `digest`, the values of the names in `reads`, and where the time stands among `dateBoundaries`,
 * unless one of `draws` is made for that context.
 */
export interface EvaluationDependencies {
  /** A digest of what the evaluator's answers can show of the snapshot (its flags that are on, whole; of the others their names). */
  readonly digest: string;
  /** Context names some switched-on flag reads (a constraint, a stickiness, an override, a strategy's own field), sorted. */
  readonly reads: readonly string[];
  /** The instants at which a date constraint turns, sorted, each once. */
  readonly dateBoundaries: readonly number[];
  /** The random draws evaluation may make; one without an escape makes every answer a draw. */
  readonly draws: readonly RandomDraw[];
}

const DEFAULT_ROLLOUT_FIELDS = ["userId", "sessionId"] as const;
// The SDK's variant stickiness `default` takes the first of these with a value, else draws.
const DEFAULT_VARIANT_FIELDS = ["userId", "sessionId", "remoteAddress"] as const;
const ALWAYS: RandomDraw = {};

/** A percentage decides only strictly between what the SDK's draw (1 to 100) can reach: at 0 or 100 the answer is fixed. */
const decides = (percentage: string | undefined) => {
  const p = Number(percentage);
  return p >= 1 && p < 100;
};

/**
 * The part of a snapshot that answers can show: a flag switched off is never evaluated (it answers
 * by its name alone, and as a parent by its switch and whether it has parents of its own); its
 * description, type, project and staleness are in no answer, nor a strategy's id, title and place
 * (its order is kept); a segment counts where a flag that is on uses it.
 */
function evaluated(set: ClientFeatureSet): unknown {
  const used = new Set<number>();
  const features = set.features.map((f) => {
    if (!f.enabled) return [f.name, false, f.dependencies ?? []];
    for (const s of f.strategies) for (const id of s.segments ?? []) used.add(id);
    const strategies = f.strategies.map((s) => [s.name, s.parameters, s.constraints, s.segments ?? [], s.variants]);
    return [f.name, true, f.dependencies ?? [], f.impressionData, strategies, f.variants];
  });
  return [features, set.segments.filter((s) => used.has(s.id))];
}

/**
 * Walks what the SDK's evaluator reads, as `unleash-client` 6 evaluates: constraints (a date
 * operator reads the time, any other its context name), the built-in strategies' fields and
 * stickiness, variants' overrides and stickiness. A flag switched off is never evaluated, and a
 * strategy the SDK does not know is skipped by it; one it knows that this walk does not (or one
 * that depends on the instance, applicationHostname) makes every answer a draw, so that a new SDK
 * strategy is evaluated on every request until it is described here.
 */
export function evaluationDependencies(set: ClientFeatureSet): EvaluationDependencies {
  const reads = new Set<string>();
  const boundaries = new Set<number>();
  const draws = new Map<string, RandomDraw>();
  const draw = (d: RandomDraw) => draws.set(JSON.stringify(d), d);
  const segments = new Map(set.segments.map((s) => [s.id, s]));

  const constraint = (c: Constraint) => {
    if (c.operator === "DATE_AFTER" || c.operator === "DATE_BEFORE") {
      const at = new Date(c.value ?? "").getTime();
      // A date that does not parse compares false at every time.
      if (Number.isFinite(at)) boundaries.add(at);
    } else {
      reads.add(c.contextName);
    }
  };

  const variants = (list: { weight: number; stickiness?: string; overrides?: { contextName: string }[] }[], stickiness?: string) => {
    if (list.reduce((sum, v) => sum + v.weight, 0) <= 0) return;
    for (const v of list) for (const o of v.overrides ?? []) reads.add(o.contextName);
    // One variant that can be picked is picked whatever the seed.
    if (list.filter((v) => v.weight !== 0).length <= 1) return;
    if (stickiness === undefined || stickiness === "default") {
      for (const field of DEFAULT_VARIANT_FIELDS) reads.add(field);
      draw({ fields: DEFAULT_VARIANT_FIELDS });
    } else {
      reads.add(stickiness);
      draw({ name: stickiness });
    }
  };

  const strategy = (s: ClientStrategy) => {
    if (!SDK_STRATEGY_NAMES.has(s.name)) return;
    for (const c of s.constraints) constraint(c);
    for (const id of s.segments ?? []) for (const c of segments.get(id)?.constraints ?? []) constraint(c);
    const p = s.parameters;
    switch (s.name) {
      case "default":
        break;
      case "userWithId":
      case "gradualRolloutUserId":
        reads.add("userId");
        break;
      case "gradualRolloutSessionId":
        reads.add("sessionId");
        break;
      case "remoteAddress":
        reads.add("remoteAddress");
        break;
      case "gradualRolloutRandom":
        if (decides(p.percentage)) draw(ALWAYS);
        break;
      case "flexibleRollout": {
        // At 0% it holds for no one; at 100% for every context with a stickiness value (random and default always have one).
        const stickiness = p.stickiness || "default";
        if (!(Number(p.rollout) > 0)) break;
        if (stickiness !== "random" && stickiness !== "default") reads.add(stickiness);
        else if (!decides(p.rollout)) break;
        else if (stickiness === "random") draw(ALWAYS);
        else {
          for (const field of DEFAULT_ROLLOUT_FIELDS) reads.add(field);
          draw({ fields: DEFAULT_ROLLOUT_FIELDS });
        }
        break;
      }
      default:
        // applicationHostname answers by the instance's host name; anything newer is not described here.
        draw(ALWAYS);
    }
    if (s.variants.length > 0) variants(s.variants, s.variants[0]?.stickiness || p.stickiness);
  };

  for (const feature of set.features) {
    if (!feature.enabled) continue;
    for (const s of feature.strategies) strategy(s);
    variants(feature.variants, feature.variants[0]?.stickiness);
  }

  const digest = createHash("sha256")
    .update(JSON.stringify(evaluated(set)))
    .digest("base64url");
  return {
    digest,
    reads: [...reads].sort(),
    dateBoundaries: [...boundaries].sort((a, b) => a - b),
    draws: [...draws.values()],
  };
}
