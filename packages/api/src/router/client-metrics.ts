import { clientRegistrationSchema, featureMetricsRaw, listClientApplications, registerClient } from "@vexil/services";
import { z } from "zod";
import { clientScope } from "../client-scope.ts";
import { sdkMetricsInputSchema } from "../schemas/sdk-metrics.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Client API"];

const instanceSchema = z.object({
  instanceId: z.string(),
  sdkVersion: z.string().nullable(),
  environment: z.string(),
  strategies: z.array(z.string()),
  started: z.iso.datetime(),
  interval: z.int(),
  lastSeen: z.iso.datetime(),
});

const metricsRowSchema = z.object({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: z.iso.datetime(),
  yes: z.int(),
  no: z.int(),
  variants: z.record(z.string(), z.int()),
});

export const clientMetricsRouter = {
  register: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/client/register", tags, summary: "An SDK instance registers" },
      access: "client",
      successStatus: 202,
    })
    // Not strict: SDKs send more than Vexil keeps (platformName, specVersion, ...).
    .input(clientRegistrationSchema.extend({ started: z.union([z.string(), z.int()]) }).loose())
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await registerClient(ctx.db, clientScope(ctx.principal).environment, input);
      return {};
    }),

  metrics: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/client/metrics",
        tags,
        summary: "An SDK reports how often each feature was on",
        description: "Counts are summed per feature, environment, application and hour, and stored in batches.",
      },
      access: "client",
      successStatus: 202,
    })
    .input(sdkMetricsInputSchema)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      ctx.deps.clientMetrics.add(clientScope(ctx.principal).environment, input);
      return {};
    }),

  applications: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/metrics/applications",
        tags: ["Metrics"],
        summary: "Applications whose SDKs registered, with their instances",
      },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ applications: z.array(z.object({ appName: z.string(), instances: z.array(instanceSchema) })) }))
    .query(async ({ ctx }) => ({ applications: toJson(await listClientApplications(ctx.db)) })),

  featureRaw: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/client-metrics/features/{featureName}/raw",
        tags: ["Metrics"],
        summary: "A feature's evaluation counts, per application, environment and hour",
        description:
          "Without `hoursBack`, every count kept: per day for the days rolled up, per hour after them. With `hoursBack` (1 to 48), the hours since then only; another value is ignored, as in Unleash.",
      },
      access: "authenticated",
    })
    .input(z.strictObject({ featureName: z.string(), hoursBack: z.string().optional() }))
    .output(z.object({ version: z.literal(1), maturity: z.literal("stable"), featureName: z.string(), data: z.array(metricsRowSchema) }))
    .query(async ({ ctx, input }) => ({
      version: 1 as const,
      maturity: "stable" as const,
      featureName: input.featureName,
      data: toJson(await featureMetricsRaw(ctx.db, input.featureName, { hoursBack: hoursBackOf(input.hoursBack) })),
    })),
};

/** Unleash's `hoursBack`: a whole number of hours from 1 to 48; anything else is as if it were not given. */
function hoursBackOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,2}$/.test(text)) return undefined;
  const hours = Number(text);
  return hours >= 1 && hours <= 48 ? hours : undefined;
}
