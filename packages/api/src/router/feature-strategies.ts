import {
  addFeatureStrategy,
  deleteFeatureStrategy,
  getFeatureStrategy,
  listFeatureStrategies,
  setFeatureEnvironmentEnabled,
  updateFeatureStrategy,
} from "@vexil/services";
import { z } from "zod";
import { featureStrategySchema, strategyInputDocumentedShape } from "../schemas/strategy.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Strategies"];
const ENV_PATH = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}";
const STRATEGIES_PATH = `${ENV_PATH}/strategies`;
const envShape = { projectId: z.string(), featureName: z.string(), environment: z.string() };
const strategyIdShape = { ...envShape, strategyId: z.string().max(100) };

const toggle = (enabled: boolean) =>
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

export const featureStrategiesRouter = {
  enable: toggle(true),
  disable: toggle(false),

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
};
