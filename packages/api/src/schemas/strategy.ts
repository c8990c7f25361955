import { CONSTRAINT_OPERATORS, constraintInputSchema, newStrategyTypeSchema, strategyInputSchema } from "@vexil/services";
import { z } from "zod";

export const constraintSchema = z
  .object({
    contextName: z.string(),
    operator: z.enum(CONSTRAINT_OPERATORS),
    values: z.array(z.string()).optional(),
    value: z.string().optional(),
    inverted: z.boolean(),
    caseInsensitive: z.boolean(),
  })
  .meta({ id: "Constraint" });

export const strategyVariantSchema = z
  .object({
    name: z.string(),
    weight: z.int().min(0).max(1000),
    weightType: z.enum(["variable", "fix"]),
    stickiness: z.string(),
    payload: z.object({ type: z.string(), value: z.string() }).optional(),
  })
  .meta({ id: "StrategyVariant" });

export const featureStrategySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    disabled: z.boolean(),
    sortOrder: z.int(),
    constraints: z.array(constraintSchema),
    parameters: z.record(z.string(), z.string()),
    variants: z.array(strategyVariantSchema),
    segments: z.array(z.int()),
  })
  .meta({ id: "FeatureStrategy" });

/** The rules live in the services, where change requests are checked too; this documents them. */
const constraintInputDocumentedSchema = constraintInputSchema;

export const strategyInputDocumentedShape = {
  ...strategyInputSchema.shape,
  constraints: z.array(constraintInputDocumentedSchema).max(100).default([]),
  variants: z
    .array(z.unknown())
    .default([])
    .meta({ description: "Strategy variants {name, weight?, weightType?, stickiness?, payload?}, normalised as feature variants are" }),
};

const strategyParameterSchema = z.object({ name: z.string(), type: z.string(), description: z.string(), required: z.boolean() });

export const strategyTypeSchema = z
  .object({
    name: z.string(),
    displayName: z.string().nullable(),
    description: z.string().nullable(),
    editable: z.boolean(),
    deprecated: z.boolean(),
    parameters: z.array(strategyParameterSchema),
  })
  .meta({ id: "StrategyType" });

export const newStrategyTypeShape = newStrategyTypeSchema.shape;
