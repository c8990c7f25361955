import { contextFieldChangesSchema, contextFieldInputSchema, legalValueSchema } from "@vexil/services";
import { z } from "zod";

const legalValueOutSchema = z
  .object({ value: z.string(), description: z.string().optional() })
  .meta({ id: "LegalValue", description: "A value the context field may take, and what it means" });

export const contextFieldSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    stickiness: z.boolean().meta({ description: "Whether strategies may use the field for stickiness" }),
    sortOrder: z.number().int(),
    createdAt: z.iso.datetime(),
    legalValues: z.array(legalValueOutSchema),
    usedInFeatures: z.number().int().optional().meta({ description: "Live flags whose strategies constrain on it (in the list only)" }),
    usedInProjects: z.number().int().optional().meta({ description: "Projects of those flags (in the list only)" }),
  })
  .meta({ id: "ContextField" });

export const contextFieldStrategiesSchema = z.object({
  strategies: z.array(
    z.object({ id: z.string(), projectId: z.string(), featureName: z.string(), strategyName: z.string(), environment: z.string() }),
  ),
});

export const contextFieldInputShape = contextFieldInputSchema.shape;
export const contextFieldChangesShape = contextFieldChangesSchema.shape;
export const legalValueShape = legalValueSchema.shape;
