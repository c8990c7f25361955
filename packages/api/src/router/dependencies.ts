import { addFeatureDependency, deleteFeatureDependency } from "@vexil/services";
import { z } from "zod";
import { dependencyInputShape, featureDependencySchema } from "../schemas/dependency.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Dependencies"];
const PATH = "/api/admin/projects/{projectId}/features/{featureName}/dependencies";
const featureShape = { projectId: z.string(), featureName: z.string() };

export const dependenciesRouter = {
  add: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags,
        summary: "Make a feature depend on a parent",
        description: "The parent is in the same project; dependencies are one level deep, so there are no cycles.",
      },
      access: "UPDATE_FEATURE_DEPENDENCY",
    })
    .input(z.strictObject({ ...featureShape, ...dependencyInputShape }))
    .output(featureDependencySchema)
    .mutation(async ({ ctx, input: { projectId, featureName, ...body } }) =>
      addFeatureDependency(ctx.db, ctx.principal, { projectId, featureName }, body),
    ),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: `${PATH}/{parent}`, tags, summary: "Remove a dependency" },
      access: "UPDATE_FEATURE_DEPENDENCY",
    })
    .input(z.strictObject({ ...featureShape, parent: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { parent, ...path } }) => {
      await deleteFeatureDependency(ctx.db, ctx.principal, path, parent);
      return {};
    }),
};
