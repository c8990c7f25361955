import { setFeatureEnvironmentEnabled } from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Strategies"];
const ENV_PATH = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}";
const envShape = { projectId: z.string(), featureName: z.string(), environment: z.string() };

/** Switching a whole feature on or off in one environment (its strategies then decide for whom). */
const turn = (enabled: boolean) =>
  protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${ENV_PATH}/${enabled ? "on" : "off"}`,
        tags,
        summary: enabled ? "Turn a feature on in an environment" : "Turn a feature off in an environment",
        description: "On with no strategies is on for everyone.",
      },
      access: "UPDATE_FEATURE_ENVIRONMENT",
    })
    .input(z.strictObject(envShape))
    .output(z.object({ enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await setFeatureEnvironmentEnabled(ctx.db, ctx.principal, input, enabled);
      return { enabled };
    });

export const featureEnvironmentsRouter = {
  turnOn: turn(true),
  turnOff: turn(false),
};
