import { useQueries, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";
import { DataTable } from "../data-table.tsx";

/** Someone else's request, to review: the API lists only your own, so reviewers open one by its number. */
function OpenByNumber({ projects }: { projects: string[] }) {
  const [, navigate] = useLocation();
  const [project, setProject] = useState("");
  const [id, setId] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(`/projects/${encodeURIComponent(project || projects[0] || "")}/change-requests/${Number(id)}`);
  };
  return (
    <form className="card row" onSubmit={submit} aria-label="Open a change request">
      <label>
        Project
        <select value={project || projects[0]} onChange={(e) => setProject(e.target.value)}>
          {projects.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Request number
        <input required inputMode="numeric" pattern="[0-9]+" value={id} onChange={(e) => setId(e.target.value)} size={6} />
      </label>
      <button type="submit">Open change request</button>
    </form>
  );
}

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
      <OpenByNumber projects={ids} />
    </>
  );
}
