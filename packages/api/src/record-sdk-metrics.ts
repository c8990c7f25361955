import { createClientMetricsBuffer, storeClientMetrics } from "@vexil/services";
import type { z } from "zod";
import type { ApiDeps } from "./context.ts";
import type { sdkMetricsInputSchema } from "./schemas/sdk-metrics.ts";

/** Adds an SDK's report to the server's batch, or stores it at once where the server keeps none. */
export async function recordSdkMetrics(deps: ApiDeps, environment: string, input: z.output<typeof sdkMetricsInputSchema>): Promise<void> {
  if (deps.clientMetrics) {
    deps.clientMetrics.add(environment, input);
    return;
  }
  const buffer = createClientMetricsBuffer();
  buffer.add(environment, input);
  await storeClientMetrics(deps.db, buffer.drain());
}
