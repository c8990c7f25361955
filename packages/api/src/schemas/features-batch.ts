import { featuresBatchExportQuerySchema, featuresBatchImportSchema } from "@vexil/services";
import { z } from "zod";
import { featureDependencySchema } from "./dependency.ts";
import { constraintSchema, strategyVariantSchema } from "./strategy.ts";
import { variantSchema } from "./variant.ts";

/** Unleash's exportResultSchema, as Vexil fills it (docs/migrate-from-unleash.md#the-features-batch-document). */
export const featuresBatchExportSchema = z
  .object({
    features: z.array(
      z.object({
        name: z.string(),
        description: z.string().nullable(),
        type: z.string(),
        project: z.string(),
        stale: z.boolean(),
        impressionData: z.boolean(),
        archived: z.boolean(),
      }),
    ),
    featureStrategies: z.array(
      z.object({
        name: z.string(),
        id: z.string(),
        featureName: z.string(),
        title: z.string().nullable(),
        disabled: z.boolean(),
        sortOrder: z.int(),
        constraints: z.array(constraintSchema),
        parameters: z.record(z.string(), z.string()),
        variants: z.array(strategyVariantSchema),
        segments: z.array(z.int()),
      }),
    ),
    featureEnvironments: z.array(
      z.object({
        name: z.string(),
        featureName: z.string(),
        environment: z.string(),
        enabled: z.boolean(),
        variants: z.array(variantSchema),
      }),
    ),
    contextFields: z.array(z.object({ name: z.string() })).meta({ description: "Always empty: Vexil keeps no context-field registry" }),
    featureTags: z.array(z.object({ featureName: z.string(), tagType: z.string(), tagValue: z.string() })),
    segments: z.array(z.object({ id: z.int(), name: z.string() })),
    tagTypes: z.array(
      z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable(), color: z.string().nullable() }),
    ),
    dependencies: z.array(z.object({ feature: z.string(), dependencies: z.array(featureDependencySchema) })),
  })
  .meta({ id: "FeaturesBatchExport" });

const importFindingSchema = z.object({ message: z.string(), affectedItems: z.array(z.string()) }).meta({ id: "ImportFinding" });

/** Unleash's importTogglesValidateSchema. */
export const importValidationSchema = z
  .object({ errors: z.array(importFindingSchema), warnings: z.array(importFindingSchema), permissions: z.array(importFindingSchema) })
  .meta({ id: "ImportValidation" });

export const exportQueryShape = featuresBatchExportQuerySchema;
export const importShape = featuresBatchImportSchema.shape;
