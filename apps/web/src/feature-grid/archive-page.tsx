import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { useProjectPermissions } from "../project-access/use-project-permissions.ts";
import { trpc, trpcClient } from "../trpc.ts";
import { NO_FILTERS, searchInput } from "./feature-filters.tsx";

/** A project's archived flags: revived and deleted for good (their events remain) by whoever the server says may, in this project. */
export function ArchivePage({ projectId }: { projectId: string }) {
  const { can } = useProjectPermissions(projectId);
  const client = useQueryClient();
  const [query, setQuery] = useState("");
  const found = useQuery({
    ...trpc.featureSearch.search.queryOptions({ ...searchInput(projectId, { ...NO_FILTERS, query }, true), limit: "100" }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries(trpc.featureSearch.search.pathFilter());
  const revive = useMutation({
    mutationFn: (featureName: string) => trpcClient.featureArchive.revive.mutate({ featureName }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (featureName: string) => trpcClient.featureArchive.delete.mutate({ featureName }),
    onSuccess: refresh,
  });
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / <Link href={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> / archive
      </p>
      <h1>Archived flags of {projectId}</h1>
      <p className="muted">An archived flag keeps its configuration and is served to no SDK; its name stays taken until it is deleted.</p>
      <search className="card row" aria-label="Search archived flags">
        <label>
          Search
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
        </label>
      </search>
      <FormError error={found.error ?? revive.error ?? remove.error} />
      <DataTable caption={`Archived flags (${found.data?.total ?? 0})`} columns={["Name", "Type", "Archived", ""]} busy={found.isFetching}>
        {found.data?.features.map((f) => (
          <tr key={f.name}>
            <td>{f.name}</td>
            <td>{f.type}</td>
            <td>{f.archivedAt ? new Date(f.archivedAt).toLocaleString() : ""}</td>
            <td className="row">
              {can("UPDATE_FEATURE") && (
                <button type="button" className="secondary" aria-label={`Revive ${f.name}`} onClick={() => revive.mutate(f.name)}>
                  Revive
                </button>
              )}
              {can("DELETE_FEATURE") && (
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${f.name}`}
                  onClick={() => {
                    if (window.confirm(`Delete ${f.name} for good? Its events remain.`)) remove.mutate(f.name);
                  }}
                >
                  Delete
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {found.data?.total === 0 && <p className="muted">Nothing is archived.</p>}
    </>
  );
}
