import type { RouterOutputs } from "../trpc.ts";

export type FeatureStrategy = RouterOutputs["featureStrategies"]["list"][number];
export type Constraint = FeatureStrategy["constraints"][number];

/** A constraint as a person reads it: `userId IN a, b`, `NOT appName STR_CONTAINS x (any case)`. */
export function describeConstraint(c: Constraint): string {
  const values = c.values?.length ? c.values.join(", ") : (c.value ?? "");
  return `${c.inverted ? "NOT " : ""}${c.contextName} ${c.operator} ${values}${c.caseInsensitive ? " (any case)" : ""}`.trim();
}

/** A strategy's parameters in words, a rollout's percentage first; empty ones are left out. */
export function describeParameters(parameters: Record<string, string>): string[] {
  return Object.entries(parameters)
    .filter(([, value]) => value !== "")
    .sort(([a], [b]) => (a === "rollout" ? -1 : b === "rollout" ? 1 : a.localeCompare(b)))
    .map(([name, value]) => (name === "rollout" ? `rollout ${value}%` : `${name}: ${value}`));
}
