import { describeConstraint, describeParameters } from "../features/describe-strategy.ts";
import type { RouterOutputs } from "../trpc.ts";

type Feature = RouterOutputs["playground"]["evaluate"]["features"][number];
type Strategy = Feature["strategies"]["data"][number];
type Constraint = Strategy["constraints"][number];

/** Why the flag is on or off, in one sentence: the switch, the parents, then the strategies. */
export function verdict(feature: Feature, environment: string): string {
  if (!feature.isEnabledInCurrentEnvironment) return `Off: switched off in ${environment}.`;
  if (feature.hasUnsatisfiedDependency) return "Off: a flag it depends on is not as it requires.";
  const evaluated = feature.strategies.data.filter((s) => !s.disabled);
  if (evaluated.length === 0) return feature.isEnabled ? "On for everyone: it has no enabled strategy." : "Off.";
  const holding = evaluated.find((s) => s.result.enabled === true);
  if (feature.isEnabled) return holding ? `On: ${strategyName(holding)} holds.` : "On.";
  if (feature.strategies.result === "unknown") return "Off here: no strategy holds, and one cannot be evaluated by the server.";
  return "Off: no strategy holds for this context.";
}

const strategyName = (s: Strategy) => (s.title ? `${s.title} (${s.name})` : s.name);

function strategyOutcome(s: Strategy): string {
  if (s.result.evaluationStatus === "unevaluated") return "disabled, not evaluated";
  if (s.result.evaluationStatus === "incomplete") return s.result.enabled === false ? "does not hold" : "cannot be evaluated by the server";
  return s.result.enabled ? "holds" : "does not hold";
}

function ConstraintItem({ c }: { c: Constraint }) {
  return (
    <li className={c.result ? "passed" : "failed"}>
      <span className={`pill ${c.result ? "on" : "off"}`}>{c.result ? "passes" : "fails"}</span> <code>{describeConstraint(c)}</code>
    </li>
  );
}

/** Each strategy in the order the SDKs evaluate them, with its parameters, constraints and segments, and what held. */
export function StrategyExplanation({ feature }: { feature: Feature }) {
  if (feature.strategies.data.length === 0) return <p className="muted">No strategies: the switch decides.</p>;
  return (
    <ol className="strategies">
      {feature.strategies.data.map((s) => (
        <li key={s.id}>
          <strong>{strategyName(s)}</strong>: {strategyOutcome(s)}
          {s.result.evaluationStatus === "complete" && s.result.variant ? `, variant ${s.result.variant.name}` : ""}
          {describeParameters(s.parameters).length > 0 && <span className="muted"> ({describeParameters(s.parameters).join(", ")})</span>}
          {s.constraints.length > 0 && (
            <ul aria-label={`Constraints of ${strategyName(s)}`}>
              {s.constraints.map((c, i) => (
                <ConstraintItem key={i} c={c} />
              ))}
            </ul>
          )}
          {s.segments.map((segment) => (
            <div key={segment.id}>
              Segment <strong>{segment.name}</strong>: {segment.result ? "passes" : "fails"}
              <ul aria-label={`Constraints of segment ${segment.name}`}>
                {segment.constraints.map((c, i) => (
                  <ConstraintItem key={i} c={c} />
                ))}
              </ul>
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}
