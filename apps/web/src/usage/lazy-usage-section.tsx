import { usePrefetchQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { usageQueries } from "./usage-queries.ts";

// The usage section and its chart library are their own chunk: the first load stays small (docs/usage.md#the-console).
const UsageSection = lazy(() => import("./usage-section.tsx"));

export function LazyUsageSection({ featureName }: { featureName: string }) {
  // Its data is asked for beside its code, not after it: one round trip less before the chart shows.
  const queries = usageQueries(featureName);
  usePrefetchQuery(queries.raw);
  usePrefetchQuery(queries.usage);
  usePrefetchQuery(queries.applications);
  return (
    <Suspense fallback={<p className="muted">Loading usage…</p>}>
      <UsageSection featureName={featureName} />
    </Suspense>
  );
}
