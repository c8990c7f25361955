import type { RouterOutputs } from "../trpc.ts";

type Event = RouterOutputs["events"]["list"]["events"][number];

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The top-level fields whose values differ, so the summary says what changed before it is opened. */
function changedFields(before: unknown, after: unknown): string[] {
  if (!isRecord(before) || !isRecord(after)) return [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** An event's stored data, before and after, behind a disclosure so the log stays one line per event. */
export function EventChange({ event }: { event: Event }) {
  const before = event.preData ?? null;
  const after = event.data ?? null;
  if (before === null && after === null) return <span className="muted">none</span>;
  const changed = changedFields(before, after);
  // One side alone (a creation's data, a deletion's last state) needs no before/after columns.
  const label = before === null ? "Data" : after === null ? "Last state" : "Before and after";
  return (
    <details className="event-change">
      <summary>
        {label}
        <span className="visually-hidden"> of event {event.id}</span>
        {changed.length > 0 && <span className="muted"> ({changed.join(", ")})</span>}
      </summary>
      {before !== null && after !== null ? (
        <div className="event-data">
          <figure>
            <figcaption>Before</figcaption>
            <pre>{pretty(before)}</pre>
          </figure>
          <figure>
            <figcaption>After</figcaption>
            <pre>{pretty(after)}</pre>
          </figure>
        </div>
      ) : (
        <pre>{pretty(before ?? after)}</pre>
      )}
    </details>
  );
}
