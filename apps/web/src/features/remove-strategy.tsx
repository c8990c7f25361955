import { FormError } from "../form-error.tsx";
import type { FeatureStrategy } from "./describe-strategy.ts";
import { ProposedNotice } from "./proposed-notice.tsx";
import { useStrategyWrite } from "./use-strategy-write.ts";

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  strategy: FeatureStrategy;
  changeRequests: boolean;
}

/** Removes one strategy, or proposes removing it where change requests are on. */
export function RemoveStrategy({ projectId, featureName, environment, strategy, changeRequests }: Props) {
  const remove = useStrategyWrite({ projectId, featureName, environment }, changeRequests);
  const what = strategy.title ?? strategy.name;
  return (
    <div className="strategy-actions">
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        aria-label={`${changeRequests ? "Propose removing" : "Remove"} strategy ${what}`}
        onClick={() => remove.mutate({ action: "deleteStrategy", id: strategy.id })}
      >
        {changeRequests ? "Propose removing" : "Remove"}
      </button>
      <FormError error={remove.error} />
      {remove.data?.request && <ProposedNotice projectId={projectId} request={remove.data.request} />}
    </div>
  );
}
