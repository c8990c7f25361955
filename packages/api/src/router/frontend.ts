import { z } from "zod";
import { clientScope } from "../client-scope.ts";
import { handleFrontendEvaluation, handleFrontendQuery } from "../frontend-handler.ts";
import { frontendToggles } from "../frontend-toggles.ts";
import { sdkMetricsInputSchema } from "../schemas/sdk-metrics.ts";
import { frontendQuerySchema, frontendRequestSchema, frontendTogglesSchema } from "../schemas/frontend.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Frontend API"];
const description =
  "Only the flags that are on for the context, each with its variant, evaluated by the Node SDK's own evaluator exactly as an SDK would. Without a remoteAddress the request's address is used. Every 200 carries an ETag made from what the answer depends on (the flags, the token's scope, the context's values that evaluation reads); a matching If-None-Match is a 304 with no body, answered without evaluating. Takes a frontend token (an admin token is served the development environment).";

// Over REST the raw handlers answer ETags and 304s (and read `properties[name]` from the query); over tRPC the procedures answer the toggles.
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
      raw: { serve: handleFrontendQuery, notModified: true },
    })
    .input(frontendQuerySchema.optional())
    .output(frontendTogglesSchema)
    .query(async ({ ctx, input }) => ({ toggles: await frontendToggles(ctx, input ?? {}) })),

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
      raw: { serve: handleFrontendEvaluation, notModified: true },
    })
    .input(frontendRequestSchema)
    .output(frontendTogglesSchema)
    .mutation(async ({ ctx, input }) => ({ toggles: await frontendToggles(ctx, input.context ?? {}) })),

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
      ctx.deps.clientMetrics.add(clientScope(ctx.principal).environment, input);
      return {};
    }),
};
