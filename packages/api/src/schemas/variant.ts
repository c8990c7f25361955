import { PAYLOAD_TYPES, variantInputSchema, WEIGHT_TYPES } from "@vexil/services";
import { z } from "zod";

/** A variant as stored and returned: weights normalised, sorted by name in any list. */
export const variantSchema = z
  .object({
    name: z.string(),
    weight: z.int().min(0).max(1000).meta({ description: "Share of traffic in per mille" }),
    weightType: z.enum(WEIGHT_TYPES),
    stickiness: z.string(),
    payload: z.object({ type: z.enum(PAYLOAD_TYPES), value: z.string() }).optional(),
    overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })),
  })
  .meta({ id: "Variant" });

/** The variant rules live in the services, where PATCH results are checked too; this documents them. */
export const variantInputDocumentedSchema = variantInputSchema.meta({
  id: "VariantInput",
  description:
    'name URL-safe and unique in the array; weight 0-1000, required for "fix" variants and recomputed for "variable" ones; payload value must parse when type is json or number',
});

export const featureVariantsSchema = z.object({ version: z.literal(1), variants: z.array(variantSchema) }).meta({ id: "FeatureVariants" });

const pointer = z.string().meta({ description: "JSON pointer (RFC 6901) into the variants array, e.g. /0/weight or /-" });

/** One operation of an RFC 6902 JSON patch. */
export const jsonPatchOperationSchema = z
  .discriminatedUnion("op", [
    z.strictObject({ op: z.enum(["add", "replace", "test"]), path: pointer, value: z.unknown().optional() }),
    z.strictObject({ op: z.literal("remove"), path: pointer }),
    z.strictObject({ op: z.enum(["move", "copy"]), from: pointer, path: pointer }),
  ])
  .meta({ id: "JsonPatchOperation" });
