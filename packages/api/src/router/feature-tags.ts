import { addFeatureTag, listFeatureTags, removeFeatureTag, updateFeatureTags, updateProjectFeatureTags } from "@vexil/services";
import { z } from "zod";
import { featureTagSchema, projectTagChangesShape, tagChangesShape, tagInputShape, tagSchema } from "../schemas/tag.ts";
import { protectedProcedure } from "../trpc.ts";

const PATH = "/api/admin/features/{featureName}/tags";
const featureTagsOutput = z.object({ version: z.literal(1), tags: z.array(featureTagSchema) });
const ARCHIVED = "An archived flag's tags cannot change (409).";

export const featureTagsRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: PATH, tags: ["Features"], summary: "List a flag's tags", description: "Archived flags included." },
      access: "authenticated",
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(featureTagsOutput)
    .query(async ({ ctx, input }) => ({ version: 1 as const, tags: await listFeatureTags(ctx.db, input.featureName) })),

  add: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags: ["Features"],
        summary: "Tag a flag",
        description: `The tag is made if it is new (its type must exist, 400 otherwise); tagging a flag again changes nothing. ${ARCHIVED}`,
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the flag's tags" }) }),
      },
      access: "UPDATE_FEATURE",
      successStatus: 201,
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ featureName: z.string(), ...tagInputShape }))
    .output(tagSchema)
    .mutation(async ({ ctx, input: { featureName, ...tag } }) => {
      const added = await addFeatureTag(ctx.db, ctx.principal, featureName, tag);
      ctx.setHeader("location", `/api/admin/features/${encodeURIComponent(featureName)}/tags`);
      return added;
    }),

  update: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: PATH,
        tags: ["Features"],
        summary: "Add and remove a flag's tags",
        description: `All of addedTags are added, then all of removedTags removed, in one transaction; the answer is the flag's tags. ${ARCHIVED}`,
      },
      access: "UPDATE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ featureName: z.string(), ...tagChangesShape }))
    .output(featureTagsOutput)
    .mutation(async ({ ctx, input: { featureName, ...changes } }) => ({
      version: 1 as const,
      tags: await updateFeatureTags(ctx.db, ctx.principal, featureName, changes),
    })),

  remove: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: `${PATH}/{type}/{value}`,
        tags: ["Features"],
        summary: "Remove a tag from a flag",
        description: `A tag the flag does not carry is no error. ${ARCHIVED}`,
      },
      access: "UPDATE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ featureName: z.string(), type: z.string(), value: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { featureName, ...tag } }) => {
      await removeFeatureTag(ctx.db, ctx.principal, featureName, tag);
      return {};
    }),

  updateProjectFeatures: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/api/admin/projects/{projectId}/tags",
        tags: ["Tags"],
        summary: "Add and remove tags of several flags of a project",
        description: `One transaction for all the flags; a flag that does not exist or is in another project is a 400. ${ARCHIVED}`,
      },
      access: "UPDATE_FEATURE",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ projectId: z.string(), ...projectTagChangesShape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { projectId, ...changes } }) => {
      await updateProjectFeatureTags(ctx.db, ctx.principal, projectId, changes);
      return {};
    }),
};
