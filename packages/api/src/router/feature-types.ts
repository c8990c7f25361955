import { listFeatureTypes, updateFeatureTypeLifetime } from "@vexil/services";
import { z } from "zod";
import { featureTypeLifetimeShape, featureTypeSchema } from "../schemas/feature-type.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Feature Types"];

export const featureTypesRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/feature-types", tags, summary: "List feature types and their lifetimes" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), types: z.array(featureTypeSchema) }))
    .query(async ({ ctx }) => ({ version: 1 as const, types: await listFeatureTypes(ctx.db) })),

  updateLifetime: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/api/admin/feature-types/{id}/lifetime",
        tags,
        summary: "Set a feature type's expected lifetime",
        description:
          "The id is matched lower-cased. 0 or null: flags of the type are never potentially stale. The type's flags are reassessed at once (a feature-potentially-stale-on event for each flag that becomes so).",
      },
      access: "ADMIN",
    })
    .input(z.strictObject({ id: z.string(), ...featureTypeLifetimeShape }))
    .output(featureTypeSchema)
    .mutation(async ({ ctx, input }) => updateFeatureTypeLifetime(ctx.db, ctx.principal, input.id, input.lifetimeDays)),
};
