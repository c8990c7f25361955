import {
  addFeatureStrategy,
  deleteFeatureStrategy,
  getFeatureStrategy,
  listFeatureStrategies,
  patchFeatureStrategy,
  setStrategySortOrder,
  strategyPatchSchema,
  strategySortOrderSchema,
  updateFeatureStrategy,
} from "@vexil/services";
import { z } from "zod";
import { featureStrategySchema, strategyInputDocumentedShape } from "../schemas/strategy.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Strategies"];
const STRATEGIES_PATH = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies";
const envShape = { projectId: z.string(), featureName: z.string(), environment: z.string() };
const strategyIdShape = { ...envShape, strategyId: z.string().max(100) };

export const featureStrategiesRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: STRATEGIES_PATH, tags, summary: "List a feature's strategies in an environment, by sortOrder" },
      access: "authenticated",
    })
    .input(z.strictObject(envShape))
    .output(z.array(featureStrategySchema))
    .query(async ({ ctx, input }) => listFeatureStrategies(ctx.db, input)),

  add: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: STRATEGIES_PATH,
        tags,
        summary: "Add a strategy to a feature in an environment",
        description:
          "name: a built-in strategy or one defined with POST /api/admin/strategies. Constraint values must fit their operator. Variants are normalised as feature variants are.",
      },
      access: "CREATE_FEATURE_STRATEGY",
    })
    .input(z.strictObject({ ...envShape, ...strategyInputDocumentedShape }))
    .output(featureStrategySchema)
    .mutation(async ({ ctx, input: { projectId, featureName, environment, ...body } }) =>
      addFeatureStrategy(ctx.db, ctx.principal, { projectId, featureName, environment }, body),
    ),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: `${STRATEGIES_PATH}/{strategyId}`, tags, summary: "Get one strategy" },
      access: "authenticated",
    })
    .input(z.strictObject(strategyIdShape))
    .output(featureStrategySchema)
    .query(async ({ ctx, input: { strategyId, ...path } }) => getFeatureStrategy(ctx.db, path, strategyId)),

  update: protectedProcedure
    .meta({
      openapi: { method: "PUT", path: `${STRATEGIES_PATH}/{strategyId}`, tags, summary: "Replace a strategy" },
      access: "UPDATE_FEATURE_STRATEGY",
    })
    .input(z.strictObject({ ...strategyIdShape, ...strategyInputDocumentedShape }))
    .output(featureStrategySchema)
    .mutation(async ({ ctx, input: { projectId, featureName, environment, strategyId, ...body } }) =>
      updateFeatureStrategy(ctx.db, ctx.principal, { projectId, featureName, environment }, strategyId, body),
    ),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: `${STRATEGIES_PATH}/{strategyId}`, tags, summary: "Remove a strategy" },
      access: "DELETE_FEATURE_STRATEGY",
    })
    .input(z.strictObject(strategyIdShape))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { strategyId, ...path } }) => {
      await deleteFeatureStrategy(ctx.db, ctx.principal, path, strategyId);
      return {};
    }),

  patch: protectedProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: `${STRATEGIES_PATH}/{strategyId}`,
        tags,
        summary: "Change a strategy with a JSON patch",
        description:
          "The body is an RFC 6902 JSON patch applied to the strategy as GET returns it; the result is checked as a PUT body is. The id cannot change; a patch that cannot apply is a 400 saying why.",
      },
      access: "UPDATE_FEATURE_STRATEGY",
      bodyField: "patch",
    })
    .input(z.strictObject({ ...strategyIdShape, patch: strategyPatchSchema }))
    .output(featureStrategySchema)
    .mutation(async ({ ctx, input: { projectId, featureName, environment, strategyId, patch } }) =>
      patchFeatureStrategy(ctx.db, ctx.principal, { projectId, featureName, environment }, strategyId, patch),
    ),

  setSortOrder: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${STRATEGIES_PATH}/set-sort-order`,
        tags,
        summary: "Set the order in which SDKs evaluate a feature's strategies",
        description:
          "The body is [{id, sortOrder}], each id one of the feature's strategies in this environment, once; the others keep theirs. Answers the strategies in their new order.",
      },
      access: "UPDATE_FEATURE_STRATEGY",
      bodyField: "sortOrders",
    })
    .input(z.strictObject({ ...envShape, sortOrders: strategySortOrderSchema }))
    .output(z.array(featureStrategySchema))
    .mutation(async ({ ctx, input: { sortOrders, ...path } }) => setStrategySortOrder(ctx.db, ctx.principal, path, sortOrders)),
};
