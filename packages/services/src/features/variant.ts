import { z } from "zod";
import { urlSafeName } from "./url-safe-name.ts";

export const PAYLOAD_TYPES = ["string", "json", "csv", "number"] as const;
export const WEIGHT_TYPES = ["variable", "fix"] as const;
/** Weights are per mille: the weights of a feature's variants in one environment add up to this. */
export const TOTAL_WEIGHT = 1000;

// JSON's number grammar: what SDKs can turn into a number, and nothing like "0x1f" or " 1".
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function parsesAsJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

const variantPayloadSchema = z.strictObject({ type: z.enum(PAYLOAD_TYPES), value: z.string() }).superRefine((payload, ctx) => {
  if (payload.type === "json" && !parsesAsJson(payload.value)) {
    ctx.addIssue({ code: "custom", path: ["value"], message: 'must be valid JSON when "type" is "json"' });
  }
  if (payload.type === "number" && !JSON_NUMBER.test(payload.value)) {
    ctx.addIssue({ code: "custom", path: ["value"], message: 'must be a number when "type" is "number"' });
  }
});

const variantOverrideSchema = z.strictObject({
  contextName: z.string().min(1).max(100),
  values: z.array(z.string()),
});

/**
 * One variant as a client writes it (docs/flag-model.md#variants). The weight of a `variable` variant is computed
 * on every write, so it may be left out; a `fix` variant needs one.
 */
export const variantInputSchema = z
  .strictObject({
    name: urlSafeName,
    weight: z.number().int().min(0).max(TOTAL_WEIGHT).optional(),
    weightType: z.enum(WEIGHT_TYPES).default("variable"),
    stickiness: z.string().min(1).max(100).default("default"),
    // null is accepted as "no payload", as PUT clears a field with null.
    payload: variantPayloadSchema.nullish(),
    overrides: z.array(variantOverrideSchema).default([]),
  })
  .superRefine((variant, ctx) => {
    if (variant.weightType === "fix" && variant.weight === undefined) {
      ctx.addIssue({ code: "custom", path: ["weight"], message: 'is required when "weightType" is "fix"' });
    }
  });

/** A whole variants array: every variant valid and every name used once. */
export const variantsInputSchema = z.array(variantInputSchema).superRefine((variants, ctx) => {
  const seen = new Set<string>();
  variants.forEach((variant, i) => {
    if (seen.has(variant.name)) {
      ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${variant.name}" is used by more than one variant` });
    }
    seen.add(variant.name);
  });
});

export type VariantInput = z.input<typeof variantInputSchema>;
type VariantPayload = z.output<typeof variantPayloadSchema>;
type VariantOverride = z.output<typeof variantOverrideSchema>;

/** A stored variant: weights normalised, defaults filled in. */
export interface Variant {
  name: string;
  weight: number;
  weightType: (typeof WEIGHT_TYPES)[number];
  stickiness: string;
  payload?: VariantPayload;
  overrides: VariantOverride[];
}

/** The one place where stored JSON becomes variants; what is stored was validated on its way in. */
export function variantsFromJson(json: unknown): Variant[] {
  if (!Array.isArray(json)) return [];
  return (json as Variant[]).map((v) => ({
    name: v.name,
    weight: v.weight,
    weightType: v.weightType,
    stickiness: v.stickiness,
    ...(v.payload ? { payload: { type: v.payload.type, value: v.payload.value } } : {}),
    overrides: v.overrides ?? [],
  }));
}
