import type { ReactNode } from "react";
import { describeConstraint, describeParameters, type FeatureStrategy } from "./describe-strategy.ts";

/** A strategy as stored, or as a change request proposes it (where most fields may be left out). */
export type StrategyShape = Pick<FeatureStrategy, "name"> & Partial<Omit<FeatureStrategy, "name">>;

/** One strategy in words: its name or title, whether disabled, parameters, constraints, segments (by name where known) and variants. */
export function StrategySummary({ strategy: s, segmentNames }: { strategy: StrategyShape; segmentNames?: Map<number, string> }) {
  return (
    <>
      <strong>{s.title ?? s.name}</strong>
      {s.title && <span className="muted"> ({s.name})</span>}
      {s.disabled && <span className="pill off">disabled</span>}
      <ul>
        {describeParameters(s.parameters ?? {}).map((p) => (
          <li key={p}>{p}</li>
        ))}
        {(s.constraints ?? []).map((c, i) => (
          <li key={i}>
            <code>{describeConstraint(c)}</code>
          </li>
        ))}
        {(s.segments?.length ?? 0) > 0 && <li>segments {s.segments?.map((id) => segmentNames?.get(id) ?? id).join(", ")}</li>}
        {(s.variants?.length ?? 0) > 0 && (
          <li>variants {s.variants?.map((v) => `${v.name}${v.weight === undefined ? "" : ` ${v.weight / 10}%`}`).join(", ")}</li>
        )}
      </ul>
    </>
  );
}

/** A feature's strategies in one environment, in the order the SDKs evaluate them. */
export function StrategyList(props: {
  environment: string;
  strategies: FeatureStrategy[];
  actions?: (strategy: FeatureStrategy) => ReactNode;
  segmentNames?: Map<number, string>;
}) {
  const { environment, strategies, actions, segmentNames } = props;
  const sorted = [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  if (sorted.length === 0) return <p className="muted">No strategies in {environment}: when on, it is on for everyone.</p>;
  return (
    <ol className="strategies" aria-label={`Strategies in ${environment}`}>
      {sorted.map((s) => (
        <li key={s.id} className="strategy" data-strategy-id={s.id}>
          <StrategySummary strategy={s} segmentNames={segmentNames} />
          {actions?.(s)}
        </li>
      ))}
    </ol>
  );
}
