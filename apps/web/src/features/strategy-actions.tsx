import { useState } from "react";
import { FormError } from "../form-error.tsx";
import type { FeatureStrategy } from "./describe-strategy.ts";
import { LazyStrategyEditor } from "./lazy-strategy-editor.tsx";
import { ProposedNotice } from "./proposed-notice.tsx";
import { RemoveStrategy } from "./remove-strategy.tsx";
import { useStrategyWrite } from "./use-strategy-write.ts";

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  changeRequests: boolean;
  /** The environment's strategies in the order the SDKs evaluate them; `strategy` is one of them. */
  sorted: FeatureStrategy[];
  strategy: FeatureStrategy;
}

/** What an Editor does to one strategy: edit it, move it up or down the order, remove it. */
export function StrategyActions({ projectId, featureName, environment, changeRequests, sorted, strategy }: Props) {
  const [editing, setEditing] = useState(false);
  const reorder = useStrategyWrite({ projectId, featureName, environment }, changeRequests);
  const at = sorted.findIndex((s) => s.id === strategy.id);
  const what = strategy.title ?? strategy.name;
  const move = (by: -1 | 1) => {
    const order = [...sorted];
    const [moved] = order.splice(at, 1);
    if (!moved) return;
    order.splice(at + by, 0, moved);
    reorder.mutate({ action: "reorderStrategy", sortOrders: order.map((s, i) => ({ id: s.id, sortOrder: i })) });
  };
  const where = { projectId, featureName, environment, changeRequests };
  return (
    <>
      <div className="strategy-actions row">
        <button
          type="button"
          className="secondary"
          aria-expanded={editing}
          onClick={() => setEditing(!editing)}
          aria-label={`Edit strategy ${what}`}
        >
          Edit
        </button>
        <button
          type="button"
          className="secondary"
          disabled={at <= 0 || reorder.isPending}
          onClick={() => move(-1)}
          aria-label={`Move up strategy ${what}`}
        >
          Move up
        </button>
        <button
          type="button"
          className="secondary"
          disabled={at >= sorted.length - 1 || reorder.isPending}
          onClick={() => move(1)}
          aria-label={`Move down strategy ${what}`}
        >
          Move down
        </button>
        <RemoveStrategy {...where} strategy={strategy} />
      </div>
      <FormError error={reorder.error} />
      {reorder.data?.request && <ProposedNotice projectId={projectId} request={reorder.data.request} />}
      {editing && <LazyStrategyEditor {...where} strategy={strategy} onDone={() => setEditing(false)} />}
    </>
  );
}

/** Opens the full editor for a new strategy: any type, with constraints, segments and variants. */
export function NewStrategyWithOptions(props: Omit<Props, "sorted" | "strategy">) {
  const [open, setOpen] = useState(false);
  return open ? (
    <LazyStrategyEditor {...props} onDone={() => setOpen(false)} />
  ) : (
    <button type="button" className="secondary" onClick={() => setOpen(true)}>
      Add a strategy with constraints, segments or variants
    </button>
  );
}
