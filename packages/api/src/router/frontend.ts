import { z } from "zod";
import { clientScope } from "../client-scope.ts";
import { frontendToggles } from "../frontend-toggles.ts";
import { recordSdkMetrics } from "../record-sdk-metrics.ts";
import { sdkMetricsInputSchema } from "../schemas/sdk-metrics.ts";
import { frontendQuerySchema, frontendRequestSchema, frontendTogglesSchema } from "../schemas/frontend.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Frontend API"];
const description =
  "Only the flags that are on for the context, each with its variant, evaluated by the Node SDK's own evaluator exactly as an SDK would. Without a remoteAddress the request's address is used. Every 200 carries an ETag; a matching If-None-Match is a 304 with no body. Takes a frontend token (an admin token is served the development environment).";

// Over REST both paths are served by handleFrontend (query parsing, ETag, 304); these procedures document them and serve /trpc.
export const frontendRouter = {
  features: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/frontend",
        tags,
        summary: "The flags on for the user's context, given in the query (`properties[name]=value` for properties)",
        description,
      },
      access: "frontend",
      // The query is the context: a malformed one is a 400.
      failures: ["ValidationError"],
    })
    .input(frontendQuerySchema.optional())
    .output(frontendTogglesSchema)
    .query(async ({ ctx, input }) => ({ toggles: await frontendToggles(ctx.deps, ctx.principal, ctx.ip, input ?? {}) })),

  evaluate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/frontend",
        tags,
        summary: "The flags on for the user's context, given as `{context}`",
        description,
      },
      access: "frontend",
    })
    .input(frontendRequestSchema)
    .output(frontendTogglesSchema)
    .mutation(async ({ ctx, input }) => ({ toggles: await frontendToggles(ctx.deps, ctx.principal, ctx.ip, input.context ?? {}) })),

  metrics: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/frontend/client/metrics",
        tags,
        summary: "A browser SDK reports how often each flag was on",
        description: "What unleash-proxy-client sends every 30 s; summed with the server-side SDKs' counts for the token's environment.",
      },
      access: "frontend",
    })
    .input(sdkMetricsInputSchema)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await recordSdkMetrics(ctx.deps, clientScope(ctx.principal).environment, input);
      return {};
    }),
};
