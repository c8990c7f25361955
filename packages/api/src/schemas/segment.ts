import { segmentInputSchema } from "@vexil/services";
import { z } from "zod";
import { recordIdSchema } from "./record-id.ts";
import { constraintSchema } from "./strategy.ts";

export const segmentSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    description: z.string().nullable(),
    project: z.string().nullable(),
    constraints: z.array(constraintSchema),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Segment" });

export const segmentIdSchema = recordIdSchema("Segment id");
export const segmentInputShape = segmentInputSchema.shape;

const segmentStrategySchema = z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
});

export const segmentStrategiesSchema = z
  .object({
    strategies: z.array(segmentStrategySchema),
    changeRequestStrategies: z.array(
      segmentStrategySchema.extend({
        id: z.string().optional(),
        changeRequest: z.object({ id: z.int(), title: z.string().nullable() }),
      }),
    ),
  })
  .meta({ id: "SegmentStrategies" });
