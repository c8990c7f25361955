import { z } from "zod";

export const featureTypeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    lifetimeDays: z.int().min(0).nullable().meta({ description: "Days until a flag of this type is potentially stale; null: never" }),
  })
  .meta({ id: "FeatureType" });

export const featureTypeLifetimeShape = {
  lifetimeDays: z
    .int()
    .min(0)
    .max(2_147_483_647)
    .nullable()
    .meta({ description: "Days until a flag of this type is potentially stale; 0 or null: never" }),
};
