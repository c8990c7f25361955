import { bulkSetFeaturesEnabled, bulkToggleSchema } from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];

/** Switching several features of a project on or off in one environment, all or none. */
const bulkTurn = (enabled: boolean) =>
  protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `/api/admin/projects/{projectId}/bulk_features/environments/{environment}/${enabled ? "on" : "off"}`,
        tags,
        summary: enabled ? "Turn several features on in an environment" : "Turn several features off in an environment",
        description:
          "All listed features or none (404 when one is not in the project, 400 when one is archived). One event per feature whose state changed." +
          (enabled ? " shouldActivateDisabledStrategies: also enable their disabled strategies." : ""),
      },
      access: "UPDATE_FEATURE_ENVIRONMENT",
    })
    .input(z.strictObject({ projectId: z.string(), environment: z.string(), ...bulkToggleSchema.shape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { projectId, environment, ...body } }) => {
      await bulkSetFeaturesEnabled(ctx.db, ctx.principal, { projectId, environment }, body, enabled);
      return {};
    });

export const featureBulkToggleRouter = {
  turnOn: bulkTurn(true),
  turnOff: bulkTurn(false),
};
