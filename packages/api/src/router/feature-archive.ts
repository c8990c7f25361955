import {
  archiveFeature,
  archiveFeatures,
  deleteArchivedFeature,
  deleteArchivedFeatures,
  featureNamesSchema,
  reviveFeature,
  reviveFeatures,
  validateArchiveFeatures,
} from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Archive"];
const batchShape = { projectId: z.string(), features: featureNamesSchema };
const noBody = z.object({});

export const featureArchiveRouter = {
  archive: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api/admin/projects/{projectId}/features/{featureName}",
        tags,
        summary: "Archive a feature flag",
        description:
          "Serves it to no SDK and refuses every write to it; its configuration is kept for a revive. Refused (409) while a live flag depends on it or an open change request changes it.",
      },
      access: "DELETE_FEATURE",
      successStatus: 202,
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ projectId: z.string(), featureName: z.string() }))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await archiveFeature(ctx.db, ctx.principal, input);
      return {};
    }),

  archiveMany: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/archive",
        tags,
        summary: "Archive several feature flags",
        description:
          "All or none, in one transaction. Names that are not stored or already archived are ignored; a flag of another project is a 400.",
      },
      access: "DELETE_FEATURE",
      successStatus: 202,
      failures: ["ConflictError"],
    })
    .input(z.strictObject(batchShape))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await archiveFeatures(ctx.db, ctx.principal, input.projectId, input.features);
      return {};
    }),

  validate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/archive/validate",
        tags,
        summary: "What archiving these feature flags would do",
        description:
          "parentsWithChildFeatures: parents whose live children are not in the list (archiving would be refused). hasDeletedDependencies is always false: archiving keeps dependencies.",
      },
      access: "DELETE_FEATURE",
    })
    .input(z.strictObject(batchShape))
    .output(z.object({ parentsWithChildFeatures: z.array(z.string()), hasDeletedDependencies: z.boolean() }))
    .mutation(({ ctx, input }) => validateArchiveFeatures(ctx.db, input.projectId, input.features)),

  reviveMany: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/revive",
        tags,
        summary: "Revive several archived feature flags",
        description:
          "They come back off in every environment, their configuration as it was. Names not stored or not archived are ignored.",
      },
      access: "UPDATE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject(batchShape))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await reviveFeatures(ctx.db, ctx.principal, input.projectId, input.features);
      return {};
    }),

  revive: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/archive/revive/{featureName}",
        tags,
        summary: "Revive an archived feature flag",
        description: "It comes back off in every environment, its configuration as it was. 400 when it is not archived.",
      },
      access: "UPDATE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await reviveFeature(ctx.db, ctx.principal, input.featureName);
      return {};
    }),

  deleteMany: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/delete",
        tags,
        summary: "Delete archived feature flags for good",
        description: "Names not stored or not archived are left as they are. Their events stay in the event log.",
      },
      access: "DELETE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject(batchShape))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await deleteArchivedFeatures(ctx.db, ctx.principal, input.projectId, input.features);
      return {};
    }),

  delete: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api/admin/archive/{featureName}",
        tags,
        summary: "Delete an archived feature flag for good",
        description: "400 when the flag is not archived. Its events stay in the event log.",
      },
      access: "DELETE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(noBody)
    .mutation(async ({ ctx, input }) => {
      await deleteArchivedFeature(ctx.db, ctx.principal, input.featureName);
      return {};
    }),
};
