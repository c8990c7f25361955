import { FEATURE_TYPES, urlSafeName } from "@vexil/services";
import { z } from "zod";
import { featureDependencySchema } from "./dependency.ts";
import { featureStrategySchema } from "./strategy.ts";
import { variantSchema } from "./variant.ts";

export const featureSchema = z
  .object({
    name: z.string(),
    project: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    impressionData: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Feature" });

const featureEnvironmentSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    sortOrder: z.int(),
    enabled: z.boolean(),
    variants: z.array(variantSchema),
    strategies: z.array(featureStrategySchema),
  })
  .meta({ id: "FeatureEnvironment" });

export const featureWithEnvironmentsSchema = featureSchema
  .extend({ environments: z.array(featureEnvironmentSchema), dependencies: z.array(featureDependencySchema) })
  .meta({ id: "FeatureWithEnvironments" });

export const createFeatureShape = {
  name: urlSafeName.meta({ description: "URL-safe, 1-100 characters, unique across all projects" }),
  description: z.string().nullable().optional(),
  type: z.enum(FEATURE_TYPES).optional().meta({ description: "Kind of feature (default release)" }),
  impressionData: z.boolean().optional().meta({ description: "Whether SDKs emit impression events (default false)" }),
};

export const updateFeatureShape = {
  description: z.string().nullable().optional(),
  type: z.enum(FEATURE_TYPES).optional(),
  impressionData: z.boolean().optional(),
};
