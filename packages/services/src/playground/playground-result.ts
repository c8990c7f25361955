import type { Variant } from "../features/variant.ts";
import type { Constraint } from "../strategies/constraint.ts";
import type { StrategyVariant } from "../strategies/feature-strategy.ts";

/** A constraint as stored, and whether the context passes it. */
export type PlaygroundConstraint = Constraint & { result: boolean };

export interface PlaygroundSegment {
  id: number;
  name: string;
  /** Whether the context passes every constraint of the segment. */
  result: boolean;
  constraints: PlaygroundConstraint[];
}

/** The variant a strategy's own variants give, as Unleash's playground names it. */
interface StrategyVariantResult {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
}

/** A strategy's answer, in Unleash's three shapes (docs/playground.md#strategies). */
export type PlaygroundStrategyResult =
  | { evaluationStatus: "complete"; enabled: boolean; variant?: StrategyVariantResult; variants?: StrategyVariant[] }
  | { evaluationStatus: "incomplete"; enabled: false | "unknown" }
  | { evaluationStatus: "unevaluated"; enabled: "unknown" };

export interface PlaygroundStrategy {
  name: string;
  id: string;
  title?: string;
  disabled: boolean;
  parameters: Record<string, string>;
  result: PlaygroundStrategyResult;
  segments: PlaygroundSegment[];
  constraints: PlaygroundConstraint[];
  links: { edit: string };
}

/** The variant a flag gives the context, as an SDK's getVariant names it. */
interface PlaygroundVariant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
  feature_enabled: boolean;
  featureEnabled?: true;
}

/** One flag evaluated for one context in one environment (Unleash's playgroundFeatureSchema). */
export interface PlaygroundFeature {
  name: string;
  projectId: string;
  strategies: { result: boolean | "unknown"; data: PlaygroundStrategy[] };
  isEnabledInCurrentEnvironment: boolean;
  hasUnsatisfiedDependency: boolean;
  isEnabled: boolean;
  variant: PlaygroundVariant;
  variants: (Variant | StrategyVariant)[];
}
