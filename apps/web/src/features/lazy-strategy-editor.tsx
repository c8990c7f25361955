import { lazy, Suspense, type ComponentProps } from "react";

// The full editor (constraints, segments, variants) is its own chunk: the first load stays small.
const StrategyEditor = lazy(() => import("../strategy-editor/strategy-editor.tsx"));

export function LazyStrategyEditor(props: ComponentProps<typeof StrategyEditor>) {
  return (
    <Suspense fallback={<p className="muted">Loading the editor…</p>}>
      <StrategyEditor {...props} />
    </Suspense>
  );
}
