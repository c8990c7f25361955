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
