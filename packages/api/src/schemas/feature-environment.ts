import { z } from "zod";
import { featureStrategySchema } from "./strategy.ts";
import { variantSchema } from "./variant.ts";

/** Unleash's featureEnvironmentSchema as GET .../features/:featureName/environments/:environment answers it. */
export const featureEnvironmentViewSchema = z
  .object({
    name: z.string().meta({ description: "The feature's name, as Unleash puts it" }),
    environment: z.string(),
    type: z.string(),
    sortOrder: z.int(),
    enabled: z.boolean(),
    lastSeenAt: z.iso.datetime().nullable(),
    variants: z.array(variantSchema),
    strategies: z.array(featureStrategySchema.extend({ featureName: z.string() })),
  })
  .meta({ id: "FeatureEnvironmentView" });
