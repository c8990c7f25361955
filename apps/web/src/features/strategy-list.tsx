import { describeConstraint, describeParameters, type FeatureStrategy } from "./describe-strategy.ts";

/** A feature's strategies in one environment, in the order the SDKs evaluate them. */
export function StrategyList({ environment, strategies }: { environment: string; strategies: FeatureStrategy[] }) {
  const sorted = [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  if (sorted.length === 0) return <p className="muted">No strategies in {environment}: when on, it is on for everyone.</p>;
  return (
    <ol className="strategies" aria-label={`Strategies in ${environment}`}>
      {sorted.map((s) => (
        <li key={s.id} className="strategy" data-strategy-id={s.id}>
          <strong>{s.title ?? s.name}</strong>
          {s.title && <span className="muted"> ({s.name})</span>}
          {s.disabled && <span className="pill off">disabled</span>}
          <ul>
            {describeParameters(s.parameters).map((p) => (
              <li key={p}>{p}</li>
            ))}
            {s.constraints.map((c, i) => (
              <li key={i}>
                <code>{describeConstraint(c)}</code>
              </li>
            ))}
            {s.segments.length > 0 && <li>segments {s.segments.join(", ")}</li>}
            {s.variants.length > 0 && <li>variants {s.variants.map((v) => `${v.name} ${v.weight / 10}%`).join(", ")}</li>}
          </ul>
        </li>
      ))}
    </ol>
  );
}
