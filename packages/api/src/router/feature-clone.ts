import { cloneFeature, cloneFeatureSchema } from "@vexil/services";
import { z } from "zod";
import { featureSchema } from "../schemas/feature.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];

export const featureCloneRouter = {
  clone: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/features/{featureName}/clone",
        tags,
        summary: "Clone a feature",
        description:
          "A new feature in the same project with the source's description, type, impressionData, variants, strategies and dependencies; off in every environment, without tags. replaceGroupId (default true) renames the strategies' groupId after the clone.",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new feature" }) }),
      },
      access: "CREATE_FEATURE",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject({ projectId: z.string(), featureName: z.string(), ...cloneFeatureSchema.shape }))
    .output(featureSchema)
    .mutation(async ({ ctx, input: { projectId, featureName, ...body } }) => {
      const created = await cloneFeature(ctx.db, ctx.principal, { projectId, featureName }, body);
      ctx.setHeader("location", `/api/admin/projects/${projectId}/features/${created.name}`);
      return toJson(created);
    }),
};
