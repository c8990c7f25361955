import { z } from "zod";

const featureSearchEnvironmentSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    enabled: z.boolean(),
    sortOrder: z.number(),
    variantCount: z.int().meta({ description: "Variants of the feature in this environment" }),
    lastSeenAt: z.iso.datetime().nullable().meta({ description: "When an SDK last reported the feature in this environment" }),
    hasStrategies: z.boolean(),
    hasEnabledStrategies: z.boolean(),
    yes: z.int().min(0).meta({ description: "SDK evaluations to true in the hour buckets of the last hour" }),
    no: z.int().min(0).meta({ description: "SDK evaluations to false in the hour buckets of the last hour" }),
    changeRequestIds: z
      .array(z.int())
      .meta({ description: "Open change requests (not Applied, Cancelled or Rejected) that change the feature here" }),
  })
  .meta({ id: "FeatureSearchEnvironment" });

/** One feature found, with Unleash's featureSearchResponseSchema fields (and lastSeenAt). */
const featureSearchResultSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    project: z.string(),
    stale: z.boolean(),
    favorite: z.boolean().meta({ description: "Always false: Vexil keeps no favourites" }),
    impressionData: z.boolean(),
    createdAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
    lastSeenAt: z.iso.datetime().nullable().meta({ description: "When an SDK last reported the feature, in any environment" }),
    createdBy: z
      .object({ id: z.int(), name: z.string(), imageUrl: z.string() })
      .meta({ description: "Who created the feature (id 0 when not a user, or unknown)" }),
    dependencyType: z.enum(["parent", "child"]).nullable(),
    environments: z.array(featureSearchEnvironmentSchema).meta({ description: "Every environment enabled in the feature's project" }),
    segments: z.array(z.string()).meta({ description: "Names of the segments its strategies use" }),
    tags: z.array(
      z.object({ type: z.string(), value: z.string(), color: z.string().nullable().meta({ description: "The tag type's colour" }) }),
    ),
    lifecycle: z
      .object({ stage: z.string(), status: z.string().optional(), enteredStageAt: z.iso.datetime() })
      .optional()
      .meta({ description: "The lifecycle stage it entered last, when it has one" }),
  })
  .meta({ id: "FeatureSearchResult" });

export const featureSearchPageSchema = z
  .object({
    features: z.array(featureSearchResultSchema),
    total: z.int().meta({ description: "Features matching the search in all, over every page" }),
  })
  .meta({ id: "FeatureSearchPage" });
