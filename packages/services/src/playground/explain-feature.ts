import type { ClientFeature, ClientSegment, ClientStrategy } from "../client-features/client-feature.ts";
import { compileConstraint } from "../compiled-evaluation/compiled-constraint.ts";
import { compileStrategy } from "../compiled-evaluation/compiled-strategy.ts";
import type { FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import type { FlagEvaluation } from "../frontend-evaluation/frontend-evaluator.ts";
import type { Constraint } from "../strategies/constraint.ts";
import type {
  PlaygroundConstraint,
  PlaygroundFeature,
  PlaygroundSegment,
  PlaygroundStrategy,
  PlaygroundStrategyResult,
} from "./playground-result.ts";

/** A strategy of the environment: one the SDKs are served, or one switched off (`disabled`), which they are not. */
export type ExplainedStrategy = ClientStrategy & { disabled: boolean };

/** What explaining one flag needs beside the flag: the snapshot's segments and flags, and the evaluator's answers for the same context. */
interface ExplainInput {
  environment: string;
  context: FrontendContext;
  segments: ReadonlyMap<number, ClientSegment>;
  features: ReadonlyMap<string, ClientFeature>;
  /** The evaluator's answer for every flag of the snapshot, by name. */
  evaluations: ReadonlyMap<string, FlagEvaluation>;
}

const explainConstraint =
  (context: FrontendContext) =>
  (c: Constraint): PlaygroundConstraint => ({
    ...c,
    result: compileConstraint(c)(context),
  });

function explainSegments(s: ClientStrategy, input: ExplainInput): PlaygroundSegment[] {
  return (s.segments ?? []).flatMap((id) => {
    const segment = input.segments.get(id);
    if (!segment) return [];
    const constraints = segment.constraints.map(explainConstraint(input.context));
    return [{ id, name: segment.name, result: constraints.every((c) => c.result), constraints }];
  });
}

/**
 * One strategy's answer (docs/playground.md#strategies): with the compiled evaluator's own pieces, so
 * that each part is judged as the answer was. A strategy the SDK does not know, and
 * applicationHostname (which answers by the host the SDK runs on, not this server), are
 * `incomplete`: false when a constraint or segment fails, else `unknown`.
 */
function strategyResult(
  s: ExplainedStrategy,
  constraints: PlaygroundConstraint[],
  segments: PlaygroundSegment[],
  input: ExplainInput,
): PlaygroundStrategyResult {
  if (s.disabled) return { evaluationStatus: "unevaluated", enabled: "unknown" };
  const passes = constraints.every((c) => c.result) && segments.every((g) => g.result);
  const compiled = s.name === "applicationHostname" ? undefined : compileStrategy(s, input.segments);
  if (!compiled) return { evaluationStatus: "incomplete", enabled: passes ? "unknown" : false };
  const enabled = passes && compiled.holds(input.context);
  if (!enabled || !compiled.variants) return { evaluationStatus: "complete", enabled };
  const picked = compiled.variants.definitions[compiled.variants.pick(input.context)];
  if (!picked) return { evaluationStatus: "complete", enabled };
  return {
    evaluationStatus: "complete",
    enabled,
    variant: {
      name: picked.name,
      enabled: true,
      ...(picked.payload ? { payload: { type: picked.payload.type, value: picked.payload.value } } : {}),
    },
    variants: s.variants,
  };
}

/** Whether each parent is as the flag requires, judged from the evaluator's answers (docs/evaluation.md#dependencies). */
function dependenciesSatisfied(feature: ClientFeature, input: ExplainInput): boolean {
  return (feature.dependencies ?? []).every((dependency) => {
    const parent = input.features.get(dependency.feature);
    const answer = input.evaluations.get(dependency.feature);
    if (!parent || !answer || (parent.dependencies?.length ?? 0) > 0) return false;
    if (dependency.enabled === false) return !answer.enabled;
    if (!answer.enabled) return false;
    return !dependency.variants?.length || dependency.variants.includes(answer.variant.name);
  });
}

/**
 * One flag for one context (docs/playground.md): the answer (on or off, the variant) is the compiled
 * evaluator's, the one the frontend API and OFREP serve; this pass only says, strategy by strategy and
 * constraint by constraint, what held. A test holds the two to each other.
 */
export function explainFeature(feature: ClientFeature, strategies: ExplainedStrategy[], input: ExplainInput): PlaygroundFeature {
  const answer = input.evaluations.get(feature.name);
  if (!answer) throw new Error(`The evaluator has no answer for ${feature.name}.`);
  const edit = `/projects/${encodeURIComponent(feature.project)}/features/${encodeURIComponent(feature.name)}`;
  const data: PlaygroundStrategy[] = strategies.map((s) => {
    const constraints = s.constraints.map(explainConstraint(input.context));
    const segments = explainSegments(s, input);
    return {
      name: s.name,
      id: s.id,
      ...(s.title ? { title: s.title } : {}),
      disabled: s.disabled,
      parameters: s.parameters,
      result: strategyResult(s, constraints, segments, input),
      segments,
      constraints,
      links: { edit: `${edit}?environment=${encodeURIComponent(input.environment)}&strategy=${encodeURIComponent(s.id)}` },
    };
  });
  const evaluated = data.filter((s) => !s.disabled);
  const holding = evaluated.find((s) => s.result.evaluationStatus === "complete" && s.result.enabled === true);
  const result: boolean | "unknown" =
    evaluated.length === 0 ? feature.enabled : holding ? true : evaluated.some((s) => s.result.enabled === "unknown") ? "unknown" : false;
  const holdingResult = holding?.result;
  const fromStrategy = answer.variantFromStrategy && holdingResult?.evaluationStatus === "complete" ? holdingResult.variants : undefined;
  return {
    name: feature.name,
    projectId: feature.project,
    strategies: { result, data },
    isEnabledInCurrentEnvironment: feature.enabled,
    hasUnsatisfiedDependency: !dependenciesSatisfied(feature, input),
    isEnabled: answer.enabled,
    variant: {
      name: answer.variant.name,
      enabled: answer.variant.enabled,
      ...(answer.variant.payload ? { payload: answer.variant.payload } : {}),
      feature_enabled: answer.enabled,
      // As Unleash 8.2 answers: only on the disabled variant of a flag that is on.
      ...(answer.enabled && !answer.variant.enabled ? { featureEnabled: true } : {}),
    },
    variants: fromStrategy ?? feature.variants,
  };
}
