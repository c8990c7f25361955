import type { RouterInputs, RouterOutputs } from "../trpc.ts";

export type Variant = RouterOutputs["features"]["variants"]["variants"][number];
export type VariantInput = RouterInputs["features"]["replaceVariants"]["variants"][number];
export const PAYLOAD_TYPES = ["string", "json", "csv", "number"] as const;
type PayloadType = (typeof PAYLOAD_TYPES)[number];

/** One row of the variants editor, as typed: weights and payloads stay text until saved. */
export interface VariantDraft {
  name: string;
  weightType: "variable" | "fix";
  weight: string;
  stickiness: string;
  payloadType: PayloadType | "";
  payloadValue: string;
  overrides: Variant["overrides"];
}

const TOTAL_WEIGHT = 1000;
// JSON's number grammar, which is what the API accepts for a "number" payload.
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export const toDraft = (v: Variant): VariantDraft => ({
  name: v.name,
  weightType: v.weightType,
  weight: String(v.weight),
  stickiness: v.stickiness,
  payloadType: v.payload?.type ?? "",
  payloadValue: v.payload?.value ?? "",
  overrides: v.overrides,
});

export const newDraft = (): VariantDraft => ({
  name: "",
  weightType: "variable",
  weight: "",
  stickiness: "default",
  payloadType: "",
  payloadValue: "",
  overrides: [],
});

export function toInput(d: VariantDraft): VariantInput {
  return {
    name: d.name,
    weightType: d.weightType,
    ...(d.weightType === "fix" ? { weight: Number(d.weight) } : {}),
    stickiness: d.stickiness,
    ...(d.payloadType ? { payload: { type: d.payloadType, value: d.payloadValue } } : {}),
    overrides: d.overrides,
  };
}

/** What the API would refuse, per row and field, checked as the API checks it (docs/flag-model.md#variants). */
export function draftProblems(drafts: VariantDraft[]): { rows: Record<string, string>[]; whole: string[] } {
  const rows = drafts.map((d, i) => {
    const p: Record<string, string> = {};
    if (d.name.length < 1 || d.name.length > 100 || encodeURIComponent(d.name) !== d.name || d.name === "." || d.name === "..") {
      p.name = "1-100 URL-safe characters";
    } else if (drafts.findIndex((o) => o.name === d.name) !== i) p.name = "used by another variant";
    if (d.weightType === "fix") {
      const w = Number(d.weight);
      if (d.weight.trim() === "" || !Number.isInteger(w) || w < 0 || w > TOTAL_WEIGHT) p.weight = "a whole number from 0 to 1000";
    }
    if (d.stickiness.length < 1 || d.stickiness.length > 100) p.stickiness = "1-100 characters";
    if (d.payloadType === "json") {
      try {
        JSON.parse(d.payloadValue);
      } catch {
        p.payload = "must be valid JSON";
      }
    }
    if (d.payloadType === "number" && !JSON_NUMBER.test(d.payloadValue)) p.payload = "must be a number";
    return p;
  });
  const whole: string[] = [];
  if (drafts.length > 0 && !drafts.some((d) => d.weightType === "variable")) whole.push('There must be at least one "variable" variant.');
  const fixed = drafts.filter((d) => d.weightType === "fix").reduce((sum, d) => sum + (Number(d.weight) || 0), 0);
  if (fixed > TOTAL_WEIGHT) whole.push(`The "fix" weights add up to ${fixed}, more than ${TOTAL_WEIGHT}.`);
  return { rows, whole };
}

/**
 * The weights the server will store: "fix" ones as given; the rest of 1000 shared by the
 * "variable" ones in the order shown, the first ones taking one more when it does not divide.
 */
export function normalisedWeights(drafts: VariantDraft[]): (number | null)[] {
  const variableCount = drafts.filter((d) => d.weightType === "variable").length;
  const left = TOTAL_WEIGHT - drafts.reduce((sum, d) => sum + (d.weightType === "fix" ? Number(d.weight) || 0 : 0), 0);
  if (variableCount === 0 || left < 0) return drafts.map((d) => (d.weightType === "fix" ? Number(d.weight) || 0 : null));
  let seen = 0;
  return drafts.map((d) => {
    if (d.weightType === "fix") return Number(d.weight) || 0;
    seen += 1;
    return Math.floor(left / variableCount) + (seen <= left % variableCount ? 1 : 0);
  });
}

export const percent = (weight: number) => `${(weight / 10).toFixed(1)}%`;
