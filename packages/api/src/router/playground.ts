import { evaluateAdvancedPlayground, evaluatePlayground } from "@vexil/services";
import {
  advancedPlaygroundRequestDocumentedSchema,
  advancedPlaygroundResponseSchema,
  playgroundRequestDocumentedSchema,
  playgroundResponseSchema,
} from "../schemas/playground.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Playground"];

// Unleash's playground (docs/playground.md): any signed-in caller may ask, as in Unleash; nothing is stored.
export const playgroundRouter = {
  evaluate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/playground",
        tags,
        summary: "Every flag of the projects in one environment, evaluated for a context, with why",
        description:
          "Each flag's answer (isEnabled, variant) is what an SDK gets, from the evaluator the frontend API uses; each strategy, segment and constraint says whether it held. An environment that does not exist is a 400.",
      },
      access: "authenticated",
    })
    .input(playgroundRequestDocumentedSchema)
    .output(playgroundResponseSchema)
    .mutation(({ ctx, input }) => evaluatePlayground(ctx.db, input)),

  evaluateAdvanced: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/playground/advanced",
        tags,
        summary: "Every flag in several environments, for every context the comma-separated values make",
        description:
          "A context value `a,b` makes two contexts; every combination is evaluated in every environment, grouped by flag and environment. More than 15,000 evaluations (environments x flags x contexts) is a 400, before any is made.",
      },
      access: "authenticated",
    })
    .input(advancedPlaygroundRequestDocumentedSchema)
    .output(advancedPlaygroundResponseSchema)
    .mutation(({ ctx, input }) => evaluateAdvancedPlayground(ctx.db, input)),
};
