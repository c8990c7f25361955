import type { RouterInputs } from "../trpc.ts";
import { constraintProblems, type Operator, takesValues } from "./constraint-values.ts";

/** The API's constraint input: converting to and from it holds the two operator lists equal. */
type ConstraintInput = NonNullable<RouterInputs["featureStrategies"]["add"]["constraints"]>[number];

/** One constraint as typed: a list's values one per line until saved. */
export interface ConstraintDraft {
  contextName: string;
  operator: Operator;
  valuesText: string;
  value: string;
  inverted: boolean;
  caseInsensitive: boolean;
}

export const newConstraintDraft = (): ConstraintDraft => ({
  contextName: "",
  operator: "IN",
  valuesText: "",
  value: "",
  inverted: false,
  caseInsensitive: false,
});

export const toConstraintDraft = (c: ConstraintInput): ConstraintDraft => ({
  contextName: c.contextName,
  operator: c.operator,
  valuesText: (c.values ?? []).join("\n"),
  value: c.value ?? "",
  inverted: c.inverted ?? false,
  caseInsensitive: c.caseInsensitive ?? false,
});

/** The constraint the API is sent: `values` or `value`, as its operator takes (blank lines are no values). */
export function toConstraint(d: ConstraintDraft): ConstraintInput {
  const base = { contextName: d.contextName.trim(), operator: d.operator, inverted: d.inverted, caseInsensitive: d.caseInsensitive };
  if (takesValues(d.operator)) {
    return {
      ...base,
      values: d.valuesText
        .split("\n")
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    };
  }
  return { ...base, value: d.value };
}

export const draftConstraintProblems = (drafts: ConstraintDraft[]) => drafts.map((d) => constraintProblems(toConstraint(d)));
export const anyConstraintProblem = (drafts: ConstraintDraft[]) =>
  drafts.length > 100 || draftConstraintProblems(drafts).some((p) => Object.keys(p).length > 0);
