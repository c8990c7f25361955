import { z } from "zod";
import { featureDependencySchema } from "./dependency.ts";
import { constraintSchema, featureStrategySchema } from "./strategy.ts";
import { variantSchema } from "./variant.ts";

/** A served strategy: never disabled, no title when it has none, segment ids only for newer SDKs. */
const clientStrategySchema = featureStrategySchema
  .omit({ disabled: true })
  .extend({
    title: z.string().optional(),
    segments: z.array(z.int()).optional().meta({ description: "Segment ids, for SDKs that send Unleash-Client-Spec >= 4.2.0" }),
  })
  .meta({ id: "ClientStrategy" });

export const clientFeatureSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    description: z.string().nullable(),
    project: z.string(),
    enabled: z.boolean(),
    stale: z.boolean(),
    impressionData: z.boolean(),
    strategies: z.array(clientStrategySchema),
    variants: z.array(variantSchema),
    dependencies: z.array(featureDependencySchema.partial({ variants: true })).optional(),
  })
  .meta({ id: "ClientFeature" });

export const clientFeaturesSchema = z
  .object({
    version: z.literal(2),
    features: z.array(clientFeatureSchema),
    segments: z.array(z.object({ id: z.int(), name: z.string(), constraints: z.array(constraintSchema) })).optional(),
    query: z.object({
      project: z.array(z.string()).optional(),
      namePrefix: z.string().optional(),
      environment: z.string(),
      inlineSegmentConstraints: z.boolean(),
    }),
    meta: z.object({ revisionId: z.int(), etag: z.string() }),
  })
  .meta({ id: "ClientFeatures" });
