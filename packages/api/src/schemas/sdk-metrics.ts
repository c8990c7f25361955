import { clientMetricsSchema } from "@vexil/services";
import { z } from "zod";

/**
 * A metrics report as SDKs send it, server-side and browser alike: times as ISO strings or epoch
 * numbers, and not strict, since SDKs send more than Vexil keeps (platformName, impactMetrics, ...).
 */
export const sdkMetricsInputSchema = clientMetricsSchema
  .extend({
    bucket: z.object({
      start: z.union([z.string(), z.int()]),
      stop: z.union([z.string(), z.int()]),
      toggles: clientMetricsSchema.shape.bucket.shape.toggles,
    }),
  })
  .loose();
