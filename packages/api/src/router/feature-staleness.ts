import { markFeaturesStale } from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];

export const featureStalenessRouter = {
  markStale: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/stale",
        tags,
        summary: "Mark features of a project stale, or not stale",
        description:
          "Each name must be a feature of the project (404 naming the others, and nothing changes). A feature whose mark changes gets a feature-stale-on or feature-stale-off event; SDKs are served `stale`.",
      },
      access: "UPDATE_FEATURE",
      successStatus: 202,
    })
    .input(
      z.strictObject({
        projectId: z.string(),
        features: z.array(z.string().min(1).max(100)).max(1000).meta({ description: "Feature names, at most 1000" }),
        stale: z.boolean(),
      }),
    )
    .output(z.object({}))
    .mutation(async ({ ctx, input: { projectId, ...request } }) => {
      await markFeaturesStale(ctx.db, ctx.principal, projectId, request);
      return {};
    }),
};
