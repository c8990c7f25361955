import { getFeatureEnvironment, setFeatureEnvironmentEnabled } from "@vexil/services";
import { z } from "zod";
import { featureEnvironmentViewSchema } from "../schemas/feature-environment.ts";
import { toJson } from "../schemas/to-json.ts";
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

  get: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: ENV_PATH,
        tags,
        summary: "Get a feature in one environment: on or off, its variants and its strategies",
        description: "404 says whether the project, the feature, the environment or its enabling in the project is missing.",
      },
      access: "authenticated",
    })
    .input(z.strictObject(envShape))
    .output(featureEnvironmentViewSchema)
    .query(async ({ ctx, input }) => toJson(await getFeatureEnvironment(ctx.db, input))),
};
