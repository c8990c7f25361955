import { createRequire } from "node:module";
import type UnleashClientClass from "unleash-client/lib/client.js";
import type { Context as SdkContext } from "unleash-client/lib/context.js";
import type { FeatureInterface } from "unleash-client/lib/feature.js";
import type { RepositoryInterface } from "unleash-client/lib/repository/index.js";
import type { Strategy } from "unleash-client/lib/strategy/index.js";
import type { Segment } from "unleash-client/lib/strategy/strategy.js";
import type { ClientFeatureSet } from "../client-features/client-feature.ts";
import { CONTEXT_FIELDS, type FrontendContext } from "./frontend-context.ts";

// The Node SDK's evaluator, as Unleash's own frontend API and proxy use it: the client that
// evaluates over a repository, and the built-in strategies. Both are CommonJS modules whose
// class is their `default` export; required as such, so Node and the bundle agree on what it is.
const requireSdk = createRequire(import.meta.url);
const { default: UnleashClient } = requireSdk("unleash-client/lib/client.js") as { default: typeof UnleashClientClass };
const { defaultStrategies } = requireSdk("unleash-client/lib/strategy/index.js") as { defaultStrategies: Strategy[] };

/** The strategies the SDK's evaluator knows; it skips any other as one that does not hold. */
export const SDK_STRATEGY_NAMES: ReadonlySet<string> = new Set(defaultStrategies.map((s) => s.name));

/** A variant as the frontend API answers it (as in Unleash). */
interface FrontendVariant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
  feature_enabled: boolean;
}

/** One flag that is on for the context, as `unleash-proxy-client` reads it. */
export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: FrontendVariant;
  impressionData: boolean;
}

/** One flag evaluated for a context, on or off, with what decided it (what OFREP answers). */
export interface FlagEvaluation {
  name: string;
  /** The environment's switch. */
  switchedOn: boolean;
  /** Whether the flag is on for the context (the SDK's isEnabled). */
  enabled: boolean;
  /** The variant the context gets; `enabled: false` when it gets none. */
  variant: { name: string; enabled: boolean; payload?: { type: string; value: string } };
  /** Whether the flag has variants in the environment: its own or any strategy's. */
  hasVariants: boolean;
  /** Whether the flag has strategies (without any it is on for everyone). */
  hasStrategies: boolean;
  /** Whether the variant came from a strategy's variants rather than the flag's own. */
  variantFromStrategy: boolean;
}

export interface FrontendEvaluator {
  /** The flags that are on for this context, by name, with the variant each gives it. */
  evaluate(context: FrontendContext): FrontendToggle[];
  /**
   * The frontend API's answer for this context, `{"toggles": [...]}` with the toggles of `evaluate`,
   * as JSON.stringify writes it (docs/evaluation.md#the-answer-as-text).
   */
  evaluateJson(context: FrontendContext): string;
  /** The same answer as the bytes sent: `evaluateJson`'s text in UTF-8 (docs/evaluation.md#the-answer-as-text). */
  evaluateBody(context: FrontendContext): Buffer;
  /** One flag for this context, on or off; undefined when the scope has no such flag. */
  evaluateFlag(name: string, context: FrontendContext): FlagEvaluation | undefined;
  /** Every flag of the scope for this context, on or off, in the order they are served. */
  evaluateEvery(context: FrontendContext): FlagEvaluation[];
}

// What the SDK's Unleash object puts under every context when it is built with defaults (as in Unleash: the
// frontend API builds it with appName "frontend-api").
export const CONTEXT_DEFAULTS: Readonly<Record<string, string>> = { appName: "frontend-api", environment: "default" };

/** The context as the evaluator reads it: the defaults under it, empty fields absent, properties as given. */
function sdkContext(context: FrontendContext): SdkContext {
  const out: Record<string, unknown> = { ...CONTEXT_DEFAULTS, properties: { ...context.properties } };
  for (const field of CONTEXT_FIELDS) {
    // The SDK reads currentTime through `new Date(...)`, so the text it was sent as is what it needs.
    if (context[field]) out[field] = context[field];
  }
  return out as SdkContext;
}

/**
 * Builds the SDK's evaluator over one snapshot. It reads the features as an SDK that polled the
 * client API would have parsed them (segments by id), so evaluating here is evaluating there.
 * `evaluated` is told of every evaluation for a context (one call of the three), for monitoring.
 */
export function createFrontendEvaluator(set: ClientFeatureSet, evaluated: () => void = () => {}): FrontendEvaluator {
  const served = JSON.parse(JSON.stringify({ features: set.features, segments: set.segments })) as {
    features: FeatureInterface[];
    segments: Segment[];
  };
  const toggles = new Map(served.features.map((f) => [f.name, f]));
  const segments = new Map(served.segments.map((s) => [s.id, s]));
  const repository = {
    getToggle: (name: string) => toggles.get(name),
    getToggles: () => served.features,
    getSegment: (id: number) => segments.get(id),
  } as unknown as RepositoryInterface;
  const client = new UnleashClient(repository, defaultStrategies);
  // The SDK emits "error" for a malformed feature; without a listener an EventEmitter would throw.
  client.on("error", () => {});
  // A flag whose environment switch is off is never on: the SDK need not look at it.
  const candidates = served.features.filter((f) => f.enabled);

  // The same one call per flag as `evaluate`, with what the answer came from beside it.
  const evaluateFeature = (feature: FeatureInterface, ctx: SdkContext): FlagEvaluation => {
    const strategies = (feature.strategies ?? []) as { variants?: { name: string }[] }[];
    const variant = feature.enabled ? client.forceGetVariant(feature.name, ctx) : undefined;
    return {
      name: feature.name,
      switchedOn: feature.enabled,
      enabled: variant?.feature_enabled === true,
      variant: variant
        ? {
            name: variant.name,
            enabled: variant.enabled,
            ...(variant.payload ? { payload: { type: variant.payload.type, value: variant.payload.value } } : {}),
          }
        : { name: "disabled", enabled: false },
      hasVariants: (feature.variants?.length ?? 0) > 0 || strategies.some((s) => (s.variants?.length ?? 0) > 0),
      hasStrategies: strategies.length > 0,
      variantFromStrategy: variant?.enabled === true && strategies.some((s) => s.variants?.some((v) => v.name === variant.name)),
    };
  };

  const evaluate = (context: FrontendContext): FrontendToggle[] => {
    const ctx = sdkContext(context);
    const on: FrontendToggle[] = [];
    for (const feature of candidates) {
      // One evaluation gives both the switch and the variant, so they cannot disagree under
      // random stickiness; forceGetVariant is getVariant without impression events (as Unleash's proxy).
      const variant = client.forceGetVariant(feature.name, ctx);
      if (!variant.feature_enabled) continue;
      on.push({
        name: feature.name,
        enabled: true,
        variant: {
          name: variant.name,
          enabled: variant.enabled,
          ...(variant.payload ? { payload: { type: variant.payload.type, value: variant.payload.value } } : {}),
          feature_enabled: true,
        },
        impressionData: feature.impressionData === true,
      });
    }
    return on;
  };

  const answer = (context: FrontendContext) => {
    evaluated();
    return JSON.stringify({ toggles: evaluate(context) });
  };

  return {
    evaluate(context) {
      evaluated();
      return evaluate(context);
    },
    evaluateJson: answer,
    evaluateBody: (context) => Buffer.from(answer(context)),
    evaluateFlag(name, context) {
      evaluated();
      const feature = toggles.get(name);
      return feature ? evaluateFeature(feature, sdkContext(context)) : undefined;
    },
    evaluateEvery(context) {
      evaluated();
      const ctx = sdkContext(context);
      return served.features.map((feature) => evaluateFeature(feature, ctx));
    },
  };
}
