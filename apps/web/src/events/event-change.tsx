import type { RouterOutputs } from "../trpc.ts";

type Event = RouterOutputs["events"]["list"]["events"][number];

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** An event's stored data, before and after, behind a disclosure so the log stays one line per event. */
export function EventChange({ event }: { event: Event }) {
  const before = event.preData ?? null;
  const after = event.data ?? null;
  if (before === null && after === null) return <span className="muted">none</span>;
  return (
    <details className="event-change">
      <summary>
        {before === null ? "Data" : "Before and after"}
        <span className="visually-hidden"> of event {event.id}</span>
      </summary>
      <div className={before === null ? "event-data" : "event-data two"}>
        {before !== null && (
          <figure>
            <figcaption>Before</figcaption>
            <pre>{pretty(before)}</pre>
          </figure>
        )}
        {after !== null && (
          <figure>
            <figcaption>{before === null ? "Data" : "After"}</figcaption>
            <pre>{pretty(after)}</pre>
          </figure>
        )}
      </div>
    </details>
  );
}
