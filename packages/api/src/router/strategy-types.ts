import { createStrategyType, listStrategyTypes } from "@vexil/services";
import { z } from "zod";
import { newStrategyTypeShape, strategyTypeSchema } from "../schemas/strategy.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Strategies"];

export const strategyTypesRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/strategies", tags, summary: "List strategy types, built-in and custom" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), strategies: z.array(strategyTypeSchema) }))
    .query(async ({ ctx }) => ({ version: 1 as const, strategies: await listStrategyTypes(ctx.db) })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/strategies",
        tags,
        summary: "Define a custom strategy type",
        description: "SDKs implement custom strategies themselves; features may use one once it is defined.",
      },
      access: "CREATE_STRATEGY",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(newStrategyTypeShape))
    .output(strategyTypeSchema)
    .mutation(async ({ ctx, input }) => createStrategyType(ctx.db, ctx.principal, input)),
};
