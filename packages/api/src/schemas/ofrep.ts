import { z } from "zod";

/**
 * OFREP's evaluation request, `{context}`: an OpenFeature evaluation context, any JSON object
 * (docs/ofrep.md#ofrep). Not strict: OFREP may add fields.
 */
export const ofrepRequestSchema = z
  .object({ context: z.record(z.string(), z.unknown()).optional() })
  .meta({ id: "OfrepEvaluationRequest" });

export const ofrepFlagRequestSchema = ofrepRequestSchema.extend({ key: z.string() });

export const ofrepEvaluationSchema = z
  .object({
    key: z.string(),
    reason: z.enum(["STATIC", "TARGETING_MATCH", "SPLIT", "DEFAULT", "DISABLED"]),
    variant: z.string().optional(),
    value: z.unknown().optional().describe("A boolean for a flag without variants; else the variant's payload by its type, or its name"),
    metadata: z.object({ enabled: z.boolean() }),
  })
  .meta({ id: "OfrepEvaluation" });

export const ofrepBulkEvaluationSchema = z
  .object({
    flags: z.array(ofrepEvaluationSchema),
    eventStreams: z
      .array(z.object({ type: z.literal("sse"), url: z.string() }))
      .optional()
      .describe("Over REST: the SSE URL that sends refetchEvaluation when the token's flags change"),
  })
  .meta({ id: "OfrepBulkEvaluation" });
