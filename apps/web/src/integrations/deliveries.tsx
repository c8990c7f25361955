import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";

const STATE_TEXT = { pending: "Pending (retrying)", delivered: "Delivered", failed: "Failed (given up)" } as const;

/** One integration's latest deliveries: each event, its state, its attempts and the receiver's last answer. */
export function Deliveries({ id }: { id: number }) {
  // Refreshed while shown, so that retries and their outcomes appear without a reload.
  const deliveries = useQuery({ ...trpc.addons.events.queryOptions({ id, limit: 50 }), refetchInterval: 5_000 });
  const rows = deliveries.data?.integrationEvents ?? [];
  return (
    <>
      <h2>Recent deliveries of integration {id}</h2>
      <FormError error={deliveries.error} />
      <DataTable
        caption="The latest 50, newest first"
        columns={["Event", "Type", "Feature", "State", "Attempts", "Last answer", "When"]}
        busy={deliveries.isPending}
      >
        {rows.map((d) => (
          <tr key={d.id} data-delivery-state={d.state}>
            <td>{d.event.id}</td>
            <td>
              <code>{d.event.type}</code>
            </td>
            <td>{d.event.featureName ?? <span className="muted">–</span>}</td>
            <td>{STATE_TEXT[d.state]}</td>
            <td>{d.attempts}</td>
            <td>{d.lastError ?? (d.lastStatus !== null ? `HTTP ${d.lastStatus}` : <span className="muted">–</span>)}</td>
            <td className="nowrap">
              <time dateTime={d.finishedAt ?? d.createdAt}>{new Date(d.finishedAt ?? d.createdAt).toLocaleString()}</time>
            </td>
          </tr>
        ))}
      </DataTable>
      {deliveries.isSuccess && rows.length === 0 && <p className="muted">Nothing delivered yet.</p>}
    </>
  );
}
