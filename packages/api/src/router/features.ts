import {
  createFeature,
  featureEnvironmentVariants,
  featureWithEnvironments,
  listFeatures,
  patchFeature,
  patchFeatureEnvironmentVariants,
  replaceFeatureEnvironmentVariants,
  updateFeature,
  type Variant,
} from "@vexil/services";
import { z } from "zod";
import {
  createFeatureShape,
  featureListItemSchema,
  featurePatchOperationSchema,
  featureSchema,
  featureWithEnvironmentsSchema,
  updateFeatureShape,
} from "../schemas/feature.ts";
import { toJson } from "../schemas/to-json.ts";
import { featureVariantsSchema, jsonPatchOperationSchema, variantInputDocumentedSchema } from "../schemas/variant.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];
const FEATURE_PATH = "/api/admin/projects/{projectId}/features/{featureName}";
const VARIANTS_PATH = `${FEATURE_PATH}/environments/{environment}/variants`;
const variantsPathShape = { projectId: z.string(), featureName: z.string(), environment: z.string() };

const asFeatureVariants = (variants: Variant[]) => ({ version: 1 as const, variants });

export const featuresRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/projects/{projectId}/features", tags, summary: "List the features of a project" },
      access: "authenticated",
    })
    .input(z.strictObject({ projectId: z.string() }))
    .output(z.object({ version: z.literal(1), features: z.array(featureListItemSchema) }))
    .query(async ({ ctx, input }) => ({ version: 1 as const, features: toJson(await listFeatures(ctx.db, input.projectId)) })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/features",
        tags,
        summary: "Create a feature",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new feature" }) }),
      },
      access: "CREATE_FEATURE",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject({ projectId: z.string(), ...createFeatureShape }))
    .output(featureSchema)
    .mutation(async ({ ctx, input: { projectId, ...feature } }) => {
      const created = await createFeature(ctx.db, ctx.principal, projectId, feature);
      ctx.setHeader("location", `/api/admin/projects/${projectId}/features/${created.name}`);
      return toJson(created);
    }),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: FEATURE_PATH, tags, summary: "Get a feature with its environments" },
      access: "authenticated",
    })
    .input(z.strictObject({ projectId: z.string(), featureName: z.string() }))
    .output(featureWithEnvironmentsSchema)
    .query(async ({ ctx, input }) => toJson(await featureWithEnvironments(ctx.db, input))),

  update: protectedProcedure
    .meta({
      openapi: { method: "PUT", path: FEATURE_PATH, tags, summary: "Update a feature's description, type, impressionData or stale" },
      access: "UPDATE_FEATURE",
    })
    .input(z.strictObject({ projectId: z.string(), featureName: z.string(), ...updateFeatureShape }))
    .output(featureSchema)
    .mutation(async ({ ctx, input: { projectId, featureName, ...changes } }) =>
      toJson(await updateFeature(ctx.db, ctx.principal, { projectId, featureName }, changes)),
    ),

  variants: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: VARIANTS_PATH,
        tags,
        summary: "Get the variants of a feature in an environment",
        description:
          "Sorted by name; [] when there are none. 404 says whether the project, the feature, the environment or its enabling in the project is missing.",
      },
      access: "authenticated",
    })
    .input(z.strictObject(variantsPathShape))
    .output(featureVariantsSchema)
    .query(async ({ ctx, input }) => asFeatureVariants(await featureEnvironmentVariants(ctx.db, input))),

  replaceVariants: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: VARIANTS_PATH,
        tags,
        summary: "Replace the variants of a feature in an environment",
        description:
          'The body is the array of variants. Weights are normalised: "fix" weights are kept and the rest of 1000 is split over the "variable" variants in the order given.',
      },
      access: "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
      bodyField: "variants",
    })
    .input(z.strictObject({ ...variantsPathShape, variants: z.array(variantInputDocumentedSchema) }))
    .output(featureVariantsSchema)
    .mutation(async ({ ctx, input: { variants, ...path } }) =>
      asFeatureVariants(await replaceFeatureEnvironmentVariants(ctx.db, ctx.principal, path, variants)),
    ),

  patchVariants: protectedProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: VARIANTS_PATH,
        tags,
        summary: "Change the variants of a feature in an environment with a JSON patch",
        description:
          "The body is an RFC 6902 JSON patch applied to the variants array as GET returns it (sorted by name). The result is validated and normalised as a PUT body is; a patch that cannot apply is a 400 saying why.",
      },
      access: "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
      bodyField: "patch",
    })
    .input(z.strictObject({ ...variantsPathShape, patch: z.array(jsonPatchOperationSchema) }))
    .output(featureVariantsSchema)
    .mutation(async ({ ctx, input: { patch, ...path } }) =>
      asFeatureVariants(await patchFeatureEnvironmentVariants(ctx.db, ctx.principal, path, patch)),
    ),

  patch: protectedProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: FEATURE_PATH,
        tags,
        summary: "Change a feature with a JSON patch",
        description:
          "The body is an RFC 6902 JSON patch applied to the feature as GET shows it, all operations or none. Only /description, /type, /stale and /impressionData may be written (a test may read any member); any other path is a 400 and nothing changes. Events as a PUT's: feature-metadata-updated, and feature-stale-on or -off when stale changed.",
      },
      access: "UPDATE_FEATURE",
      bodyField: "patch",
    })
    .input(z.strictObject({ projectId: z.string(), featureName: z.string(), patch: z.array(featurePatchOperationSchema) }))
    .output(featureSchema)
    .mutation(async ({ ctx, input: { patch, ...path } }) => toJson(await patchFeature(ctx.db, ctx.principal, path, patch))),
};
