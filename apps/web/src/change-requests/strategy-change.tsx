import type { FeatureStrategy } from "../features/describe-strategy.ts";
import { StrategySummary, type StrategyShape } from "../features/strategy-list.tsx";

interface Props {
  action: "addStrategy" | "updateStrategy" | "deleteStrategy";
  payload: Record<string, unknown>;
  /** The environment's strategies now, to show what an update or a removal replaces. */
  now: FeatureStrategy[] | undefined;
}

const TITLES = { addStrategy: "Add a strategy", updateStrategy: "Change a strategy", deleteStrategy: "Remove a strategy" };

/** A strategy change in words: the strategy now (for an update or a removal) and as proposed. */
export function StrategyChange({ action, payload, now }: Props) {
  const current = now?.find((s) => s.id === payload.id);
  return (
    <div
      className={
        action === "addStrategy"
          ? "diff-added strategy-change"
          : action === "deleteStrategy"
            ? "diff-removed strategy-change"
            : "diff-changed strategy-change"
      }
    >
      <p>
        <strong>{TITLES[action]}</strong>
      </p>
      {action !== "addStrategy" && (
        <figure>
          <figcaption>Now</figcaption>
          {current ? (
            <StrategySummary strategy={current} />
          ) : (
            <span className="muted">strategy {String(payload.id)}, not there any more</span>
          )}
        </figure>
      )}
      {action !== "deleteStrategy" && (
        <figure>
          <figcaption>Proposed</figcaption>
          <StrategySummary strategy={payload as StrategyShape} />
        </figure>
      )}
    </div>
  );
}
