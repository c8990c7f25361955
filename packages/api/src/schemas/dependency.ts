import { dependencyInputSchema } from "@vexil/services";
import { z } from "zod";

export const featureDependencySchema = z
  .object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()) })
  .meta({ id: "FeatureDependency" });

export const dependencyInputShape = dependencyInputSchema.shape;
