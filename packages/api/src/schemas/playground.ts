import { advancedPlaygroundRequestSchema, playgroundRequestSchema, WEIGHT_TYPES } from "@vexil/services";
import { z } from "zod";
import { constraintSchema, strategyVariantSchema } from "./strategy.ts";

export const playgroundRequestDocumentedSchema = playgroundRequestSchema.meta({ id: "PlaygroundRequest" });
export const advancedPlaygroundRequestDocumentedSchema = advancedPlaygroundRequestSchema.meta({ id: "AdvancedPlaygroundRequest" });

const payloadSchema = z.object({ type: z.string(), value: z.string() });

const playgroundConstraintSchema = z
  .object({ ...constraintSchema.shape, result: z.boolean().meta({ description: "Whether the context passes this constraint" }) })
  .meta({ id: "PlaygroundConstraint" });

const playgroundSegmentSchema = z
  .object({ id: z.int(), name: z.string(), result: z.boolean(), constraints: z.array(playgroundConstraintSchema) })
  .meta({ id: "PlaygroundSegment" });

const strategyResultSchema = z
  .discriminatedUnion("evaluationStatus", [
    z.object({
      evaluationStatus: z.literal("complete"),
      enabled: z.boolean(),
      variant: z.object({ name: z.string(), enabled: z.boolean(), payload: payloadSchema.optional() }).optional(),
      variants: z.array(strategyVariantSchema).optional(),
    }),
    z.object({
      evaluationStatus: z.literal("incomplete").meta({ description: "A strategy the SDK does not know, or applicationHostname" }),
      enabled: z.union([z.literal(false), z.literal("unknown")]),
    }),
    z.object({ evaluationStatus: z.literal("unevaluated").meta({ description: "A disabled strategy" }), enabled: z.literal("unknown") }),
  ])
  .meta({ id: "PlaygroundStrategyResult" });

const playgroundStrategySchema = z
  .object({
    name: z.string(),
    id: z.string(),
    title: z.string().optional(),
    disabled: z.boolean(),
    parameters: z.record(z.string(), z.string()),
    result: strategyResultSchema,
    segments: z.array(playgroundSegmentSchema),
    constraints: z.array(playgroundConstraintSchema),
    links: z.object({ edit: z.string().meta({ description: "The console's page of the flag, naming the environment and strategy" }) }),
  })
  .meta({ id: "PlaygroundStrategy" });

const featureShape = {
  name: z.string(),
  projectId: z.string(),
  strategies: z.object({
    result: z.union([z.boolean(), z.literal("unknown")]).meta({
      description: "true when a strategy holds; unknown when none does and one cannot be evaluated here; without strategies, the switch",
    }),
    data: z.array(playgroundStrategySchema),
  }),
  isEnabledInCurrentEnvironment: z.boolean().meta({ description: "The environment's switch" }),
  hasUnsatisfiedDependency: z.boolean(),
  isEnabled: z.boolean().meta({ description: "What an SDK answers: the compiled evaluator's answer, as the frontend API's" }),
  variant: z.object({
    name: z.string(),
    enabled: z.boolean(),
    payload: payloadSchema.optional(),
    feature_enabled: z.boolean(),
    featureEnabled: z.literal(true).optional().meta({ description: "As Unleash 8.2: only on the disabled variant of a flag that is on" }),
  }),
  variants: z.array(
    z.object({
      name: z.string(),
      weight: z.int(),
      weightType: z.enum(WEIGHT_TYPES),
      stickiness: z.string(),
      payload: payloadSchema.optional(),
      overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
    }),
  ),
};

const playgroundFeatureSchema = z.object(featureShape).meta({ id: "PlaygroundFeature" });

export const playgroundResponseSchema = z
  .object({ input: playgroundRequestDocumentedSchema, features: z.array(playgroundFeatureSchema) })
  .meta({ id: "PlaygroundResponse" });

/** One context the advanced playground made of the request's comma-separated values (its parts may be empty). */
const flatContextSchema = z.looseObject({ properties: z.record(z.string(), z.string()).optional() });

const advancedEntrySchema = z
  .object({ ...featureShape, environment: z.string(), context: flatContextSchema })
  .meta({ id: "AdvancedPlaygroundEnvironmentFeature" });

export const advancedPlaygroundResponseSchema = z
  .object({
    input: advancedPlaygroundRequestDocumentedSchema,
    features: z.array(
      z.object({ name: z.string(), projectId: z.string(), environments: z.record(z.string(), z.array(advancedEntrySchema)) }),
    ),
  })
  .meta({ id: "AdvancedPlaygroundResponse" });
