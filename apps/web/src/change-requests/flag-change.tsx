import type { FeatureStrategy } from "../features/describe-strategy.ts";
import { StrategySummary } from "../features/strategy-list.tsx";

interface Props {
  action: string;
  payload: unknown;
  /** The environment's strategies now, to name the strategies a reorder or a patch touches. */
  now: FeatureStrategy[] | undefined;
}

type PatchOp = { op: string; path: string; from?: string; value?: unknown };

const strategyName = (now: FeatureStrategy[] | undefined, id: string) => {
  const s = now?.find((x) => x.id === id);
  return s ? (s.title ?? s.name) : `strategy ${id} (not there any more)`;
};

/**
 * The changes that are neither variants, a strategy's whole body nor on/off, in words: a
 * dependency added or removed, the flag archived, strategies reordered, a strategy patched.
 */
export function FlagChange({ action, payload, now }: Props) {
  const p = (payload ?? {}) as Record<string, unknown>;
  switch (action) {
    case "addDependency": {
      const variants = (p.variants as string[] | undefined) ?? [];
      const when = p.enabled === false ? "is off" : variants.length ? `serves ${variants.join(" or ")}` : "is on";
      return (
        <p className="diff-added">
          <strong>Add a dependency</strong>: only when <code>{String(p.feature)}</code> {when}.
        </p>
      );
    }
    case "deleteDependency":
      return (
        <p className="diff-removed">
          <strong>Remove the dependency</strong> on <code>{String(p.feature)}</code>.
        </p>
      );
    case "archiveFeature":
      return (
        <p className="diff-removed">
          <strong>Archive the flag</strong>: served to no SDK in any environment; it can be revived from the archive.
        </p>
      );
    case "reorderStrategy": {
      const order = [...((payload as { id: string; sortOrder: number }[] | undefined) ?? [])].sort((a, b) => a.sortOrder - b.sortOrder);
      return (
        <div className="diff-changed strategy-change">
          <p>
            <strong>Reorder the strategies</strong>, evaluated in this order:
          </p>
          <ol>
            {order.map((o) => (
              <li key={o.id}>{strategyName(now, o.id)}</li>
            ))}
          </ol>
        </div>
      );
    }
    case "patchStrategy": {
      const id = String(p.id);
      const current = now?.find((s) => s.id === id);
      const ops = (p.patch as PatchOp[] | undefined) ?? [];
      return (
        <div className="diff-changed strategy-change">
          <p>
            <strong>Patch a strategy</strong>
          </p>
          <figure>
            <figcaption>Now</figcaption>
            {current ? <StrategySummary strategy={current} /> : <span className="muted">strategy {id}, not there any more</span>}
          </figure>
          <figure>
            <figcaption>Proposed edits</figcaption>
            <ul>
              {ops.map((op, i) => (
                <li key={i}>
                  <code>
                    {op.op} {op.from ? `${op.from} → ` : ""}
                    {op.path}
                    {"value" in op ? ` = ${JSON.stringify(op.value)}` : ""}
                  </code>
                </li>
              ))}
            </ul>
          </figure>
        </div>
      );
    }
    default:
      return (
        <p>
          <strong>{action}</strong>: <code>{JSON.stringify(payload)}</code>
        </p>
      );
  }
}
