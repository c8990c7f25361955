import { urlSafeName } from "@vexil/services";
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
    stale: z.boolean().meta({ description: "Marked stale by a user" }),
    archived: z.boolean(),
    archivedAt: z.iso.datetime().nullable(),
    lastSeenAt: z.iso.datetime().nullable().meta({ description: "When an SDK last reported evaluating it, in any environment" }),
  })
  .meta({ id: "Feature" });

const lastSeenAt = z.iso
  .datetime()
  .nullable()
  .meta({ description: "When an SDK last reported evaluating the feature in this environment" });

const featureEnvironmentSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    sortOrder: z.int(),
    enabled: z.boolean(),
    lastSeenAt,
    variants: z.array(variantSchema),
    strategies: z.array(featureStrategySchema),
  })
  .meta({ id: "FeatureEnvironment" });

export const featureWithEnvironmentsSchema = featureSchema
  .extend({ environments: z.array(featureEnvironmentSchema), dependencies: z.array(featureDependencySchema) })
  .meta({ id: "FeatureWithEnvironments" });

const featureEnvironmentSummarySchema = z
  .object({
    name: z.string(),
    type: z.string(),
    sortOrder: z.int(),
    enabled: z.boolean(),
    variantCount: z.int(),
    lastSeenAt,
    hasStrategies: z.boolean(),
    hasEnabledStrategies: z.boolean(),
  })
  .meta({ id: "FeatureEnvironmentSummary" });

/** A feature as a project's list (and its health report) shows it. */
export const featureListItemSchema = featureSchema
  .extend({ environments: z.array(featureEnvironmentSummarySchema) })
  .meta({ id: "FeatureListItem" });

const featureType = z.string().meta({ description: "One of GET /api/admin/feature-types (default release)" });

export const createFeatureShape = {
  name: urlSafeName.meta({ description: "URL-safe, 1-100 characters, unique across all projects" }),
  description: z.string().nullable().optional(),
  type: featureType.optional(),
  impressionData: z.boolean().optional().meta({ description: "Whether SDKs emit impression events (default false)" }),
};

export const updateFeatureShape = {
  description: z.string().nullable().optional(),
  type: featureType.optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
};

const pointer = z.string().meta({ description: "JSON pointer (RFC 6901) into the feature, e.g. /stale" });

/** One operation of an RFC 6902 JSON patch on a feature. */
export const featurePatchOperationSchema = z
  .discriminatedUnion("op", [
    z.strictObject({ op: z.enum(["add", "replace", "test"]), path: pointer, value: z.unknown().optional() }),
    z.strictObject({ op: z.literal("remove"), path: pointer }),
    z.strictObject({ op: z.enum(["move", "copy"]), from: pointer, path: pointer }),
  ])
  .meta({ id: "FeaturePatchOperation" });
