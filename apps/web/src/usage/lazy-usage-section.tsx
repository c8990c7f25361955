import { lazy, Suspense } from "react";

// The usage section and its chart library are their own chunk: the first load stays small (docs/usage.md#the-console).
const UsageSection = lazy(() => import("./usage-section.tsx"));

export function LazyUsageSection({ featureName }: { featureName: string }) {
  return (
    <Suspense fallback={<p className="muted">Loading usage…</p>}>
      <UsageSection featureName={featureName} />
    </Suspense>
  );
}
