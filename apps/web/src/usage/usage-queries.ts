import { trpc } from "../trpc.ts";
import { HOURS } from "./exposures-by-hour.ts";

/** The usage section's reads; the lazy wrapper starts them while the section's chunk is still loading. */
export const usageQueries = (featureName: string) => ({
  raw: trpc.clientMetrics.featureRaw.queryOptions({ featureName, hoursBack: String(HOURS) }),
  usage: trpc.usage.featureUsage.queryOptions({ featureName }),
  applications: trpc.clientMetrics.applications.queryOptions(),
});
