import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { FeatureFilters, type FeatureFilterValues, NO_FILTERS, searchInput } from "./feature-filters.tsx";
import { lastSeenText } from "./relative-time.ts";
import { useFeatureTypes } from "./use-feature-types.ts";

const PAGE = 50;

/**
 * A project's flags as a grid: one row per flag, one column per environment (on or off), with its
 * type, tags, when an SDK last reported it and a stale badge; searched and filtered by the server.
 * Whoever may delete flags in the project (the server says) archives one from its row, and can undo it at once.
 */
export function FeatureGrid({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const client = useQueryClient();
  const types = useFeatureTypes();
  const [filters, setFilters] = useState<FeatureFilterValues>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [archived, setArchived] = useState<string | null>(null);
  const input = { ...searchInput(projectId, filters, false), offset: String(offset), limit: String(PAGE) };
  const found = useQuery({ ...trpc.featureSearch.search.queryOptions(input), placeholderData: keepPreviousData });
  const refresh = () => client.invalidateQueries(trpc.featureSearch.search.pathFilter());

  const archive = useMutation({
    mutationFn: (featureName: string) => trpcClient.featureArchive.archive.mutate({ projectId, featureName }),
    onSuccess: (_, featureName) => {
      setArchived(featureName);
      return refresh();
    },
  });
  const undo = useMutation({
    mutationFn: (featureName: string) => trpcClient.featureArchive.revive.mutate({ featureName }),
    onSuccess: () => {
      setArchived(null);
      return refresh();
    },
  });

  const environments = found.data?.features[0]?.environments.map((e) => e.name) ?? [];
  const total = found.data?.total ?? 0;
  return (
    <>
      <FeatureFilters
        values={filters}
        types={types}
        onChange={(values) => {
          setFilters(values);
          setOffset(0);
        }}
      />
      {archived && (
        <p className="notice" role="status">
          Archived {archived}: no SDK is served it now.{" "}
          <button type="button" className="secondary" onClick={() => undo.mutate(archived)} disabled={undo.isPending}>
            Undo
          </button>
        </p>
      )}
      <FormError error={found.error ?? archive.error ?? undo.error} />
      <DataTable
        caption={`Flags (${total})`}
        className="grid"
        columns={["Name", "Type", "Tags", "Last seen", ...environments, ...(canEdit ? [""] : [])]}
        busy={found.isFetching}
      >
        {found.data?.features.map((f) => (
          <tr key={f.name}>
            <td>
              <Link href={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(f.name)}`}>{f.name}</Link>
              {f.stale && <span className="pill stale">stale</span>}
            </td>
            <td>{f.type}</td>
            <td>
              {f.tags.map((t) => (
                <span key={`${t.type}:${t.value}`} className="tag">
                  {t.type === "simple" ? t.value : `${t.type}:${t.value}`}
                </span>
              ))}
            </td>
            <td>{lastSeenText(f.lastSeenAt)}</td>
            {environments.map((name) => {
              const env = f.environments.find((e) => e.name === name);
              return (
                <td key={name}>
                  <span className={env?.enabled ? "pill on" : "pill off"} title={`${name}: ${env?.enabled ? "on" : "off"}`}>
                    {env?.enabled ? "on" : "off"}
                  </span>
                </td>
              );
            })}
            {canEdit && (
              <td>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Archive ${f.name}`}
                  onClick={() => archive.mutate(f.name)}
                  disabled={archive.isPending}
                >
                  Archive
                </button>
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {found.data && total === 0 && <p className="muted">No flags match.</p>}
      {total > PAGE && (
        <nav className="row" aria-label="Pages">
          <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <button type="button" className="secondary" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </nav>
      )}
      <p>
        <Link href={`/projects/${encodeURIComponent(projectId)}/archive`}>Archived flags</Link>
      </p>
    </>
  );
}
