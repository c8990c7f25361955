import { useQueries, useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";
import { DataTable } from "../data-table.tsx";

/** My pending change requests in every project: the same procedure as GET .../change-requests/pending. */
export function PendingPage() {
  const projects = useQuery(trpc.projects.list.queryOptions());
  const ids = projects.data?.projects.map((p) => p.id) ?? [];
  const pending = useQueries({
    queries: ids.map((projectId) => trpc.changeRequests.pending.queryOptions({ projectId })),
  });
  const requests = pending.flatMap((q) => q.data ?? []);
  const loading = projects.isPending || pending.some((q) => q.isPending);
  return (
    <>
      <h1>My pending change requests</h1>
      <FormError error={projects.error ?? pending.find((q) => q.error)?.error} />
      <DataTable
        caption="Draft, in review, approved and scheduled requests you created"
        columns={["Request", "Project", "Environment", "Features", "State", "Approvals"]}
        busy={loading}
      >
        {requests.map((r) => (
          <tr key={r.id}>
            <td>
              <Link href={`/projects/${encodeURIComponent(r.project)}/change-requests/${r.id}`}>
                #{r.id}
                {r.title ? ` ${r.title}` : ""}
              </Link>
            </td>
            <td>{r.project}</td>
            <td>{r.environment}</td>
            <td>{r.features.map((f) => f.name).join(", ")}</td>
            <td>
              {r.state}
              {r.state === "Scheduled" && ` for ${new Date(r.schedule.scheduledAt).toLocaleString()} (${r.schedule.status})`}
            </td>
            <td>
              {r.approvals?.length ?? 0} of {r.minApprovals}
            </td>
          </tr>
        ))}
      </DataTable>
      {!loading && requests.length === 0 && <p className="muted">You have no pending change requests.</p>}
      <h2>Review someone else's</h2>
      <p>
        The requests you can approve or apply, in every project, are in <Link href="/change-requests/inbox">your inbox</Link>.
      </p>
    </>
  );
}
