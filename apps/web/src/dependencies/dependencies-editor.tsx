import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { FormError } from "../form-error.tsx";
import { ProposedNotice } from "../features/proposed-notice.tsx";
import { type RouterOutputs, trpc, trpcClient } from "../trpc.ts";

type Dependency = RouterOutputs["features"]["get"]["dependencies"][number];
type DependencyWrite = { action: "addDependency"; dependency: Dependency } | { action: "deleteDependency"; parent: string };

interface Props {
  projectId: string;
  featureName: string;
  dependencies: Dependency[];
  canEdit: boolean;
  /**
   * Dependencies belong to the flag, not to an environment: wherever any environment requires
   * change requests, the write goes into the user's request for the first of them (by name), as
   * the API's four-eyes rule picks it.
   */
  changeRequestEnvironment: string | null;
}

const describe = (d: Dependency) =>
  `only when ${d.feature} is ${d.enabled ? "on" : "off"}${d.enabled && d.variants.length ? ` and serves ${d.variants.join(" or ")}` : ""}`;

/** The flag's parent (one level deep, same project): add one, with on/off and variants, or remove it. */
export function DependenciesEditor({ projectId, featureName, dependencies, canEdit, changeRequestEnvironment }: Props) {
  const client = useQueryClient();
  const features = useQuery({ ...trpc.features.list.queryOptions({ projectId }), enabled: canEdit });
  const [parent, setParent] = useState("");
  const [enabled, setEnabled] = useState(true);
  const [variants, setVariants] = useState("");
  const write = useMutation({
    mutationFn: async (w: DependencyWrite): Promise<{ request?: { id: number; state: string } }> => {
      if (changeRequestEnvironment) {
        const payload = w.action === "addDependency" ? w.dependency : { feature: w.parent };
        return {
          request: await trpcClient.changeRequests.addChange.mutate({
            projectId,
            environment: changeRequestEnvironment,
            feature: featureName,
            action: w.action,
            payload,
          }),
        };
      }
      if (w.action === "addDependency") await trpcClient.dependencies.add.mutate({ projectId, featureName, ...w.dependency });
      else await trpcClient.dependencies.delete.mutate({ projectId, featureName, parent: w.parent });
      return {};
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries(trpc.features.get.queryFilter({ projectId, featureName })),
        client.invalidateQueries(trpc.changeRequests.pending.pathFilter()),
      ]),
  });
  const parents = (features.data?.features ?? []).map((f) => f.name).filter((n) => n !== featureName);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const list = enabled
      ? variants
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean)
      : [];
    write.mutate({ action: "addDependency", dependency: { feature: parent, enabled, variants: list } });
  };
  return (
    <section className="card" aria-labelledby="dependencies">
      <h2 id="dependencies">Dependencies</h2>
      {dependencies.length === 0 ? (
        <p className="muted">No parent: the flag is evaluated on its own.</p>
      ) : (
        <ul>
          {dependencies.map((d) => (
            <li key={d.feature}>
              {describe(d)}{" "}
              {canEdit && (
                <button
                  type="button"
                  className="secondary"
                  disabled={write.isPending}
                  onClick={() => write.mutate({ action: "deleteDependency", parent: d.feature })}
                >
                  {changeRequestEnvironment ? "Propose removing" : "Remove"} the dependency on {d.feature}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form onSubmit={submit} aria-label="New dependency" className="row">
          <label htmlFor="dependency-parent">
            Parent flag
            <select id="dependency-parent" value={parent} onChange={(e) => setParent(e.target.value)}>
              <option value="">Choose a flag…</option>
              {parents.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
          <label className="check" htmlFor="dependency-enabled">
            <input id="dependency-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Parent is on (unchecked: off)
          </label>
          <label htmlFor="dependency-variants">
            Parent's variants (comma-separated, optional)
            <input id="dependency-variants" value={variants} disabled={!enabled} onChange={(e) => setVariants(e.target.value)} />
          </label>
          <button type="submit" disabled={parent === "" || write.isPending}>
            {changeRequestEnvironment ? "Add dependency to my change request" : "Add dependency"}
          </button>
        </form>
      )}
      <FormError error={write.error} />
      {write.data?.request && <ProposedNotice projectId={projectId} request={write.data.request} />}
    </section>
  );
}
