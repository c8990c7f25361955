import { clientApplication, featureUsage, listUnknownFlags } from "@vexil/services";
import { z } from "zod";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Metrics"];

const seenFlagSchema = z.union([
  z.object({ name: z.string(), project: z.string(), type: z.string(), description: z.string().nullable() }),
  z.object({ name: z.string(), notFound: z.literal(true) }),
]);

const implementedStrategySchema = z.union([
  z.object({ name: z.string(), description: z.string().nullable() }),
  z.object({ name: z.string(), notFound: z.literal(true) }),
]);

const applicationSchema = z.object({
  appName: z.string(),
  strategies: z.array(implementedStrategySchema),
  instances: z.array(
    z.object({
      appName: z.string(),
      instanceId: z.string(),
      sdkVersion: z.string().nullable(),
      environment: z.string(),
      started: z.iso.datetime(),
      interval: z.int(),
      lastSeen: z.iso.datetime(),
    }),
  ),
  seenToggles: z.array(seenFlagSchema),
  links: z.object({ self: z.string() }),
});

const unknownFlagSchema = z.object({
  name: z.string(),
  lastSeenAt: z.iso.datetime(),
  lastEventAt: z.iso.datetime().nullable(),
  reports: z.array(
    z.object({
      appName: z.string(),
      environments: z.array(z.object({ environment: z.string(), seenAt: z.iso.datetime() })),
    }),
  ),
});

const featureUsageSchema = z.object({
  version: z.literal(1),
  maturity: z.literal("stable"),
  featureName: z.string(),
  lastHourUsage: z.array(z.object({ environment: z.string(), timestamp: z.iso.datetime(), yes: z.int(), no: z.int() })),
  seenApplications: z.array(z.string()),
});

/** What SDKs report about their use of flags, read for people (docs/usage.md). */
export const usageRouter = {
  application: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/metrics/applications/{appName}",
        tags,
        summary: "One application: its SDK instances, the strategies they implement and the flags it reported",
        description: "404 until an SDK of the application registered or reported metrics.",
      },
      access: "authenticated",
    })
    .input(z.strictObject({ appName: z.string() }))
    .output(applicationSchema)
    .query(async ({ ctx, input }) => toJson(await clientApplication(ctx.db, input.appName))),

  unknownFlags: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/metrics/unknown-flags",
        tags,
        summary: "Flags SDKs asked for that do not exist",
        description: "Reported within the last 24 hours, by name, at most 1000, each with the applications and environments that asked.",
      },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ unknownFlags: z.array(unknownFlagSchema) }))
    .query(async ({ ctx }) => ({ unknownFlags: toJson(await listUnknownFlags(ctx.db)) })),

  featureUsage: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/client-metrics/features/{featureName}",
        tags,
        summary: "A feature's last hour of use per environment, and the applications that reported it",
      },
      access: "authenticated",
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(featureUsageSchema)
    .query(async ({ ctx, input }) => ({
      version: 1 as const,
      maturity: "stable" as const,
      ...toJson(await featureUsage(ctx.db, input.featureName)),
    })),
};
