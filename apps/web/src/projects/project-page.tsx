import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { CreateForm } from "../create-form.tsx";
import { FormError } from "../form-error.tsx";
import { useProjectPermissions } from "../project-access/use-project-permissions.ts";
import { trpc, trpcClient } from "../trpc.ts";
import { FeatureGrid } from "../feature-grid/feature-grid.tsx";

/** A project's flags (the grid) and where its change requests are on. */
export function ProjectPage({ projectId }: { projectId: string }) {
  const { can, readOnly } = useProjectPermissions(projectId);
  const config = useQuery(trpc.changeRequests.config.queryOptions({ projectId }));
  const gated = config.data?.filter((c) => c.changeRequestsEnabled) ?? [];
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / {projectId}
      </p>
      <h1>Project {projectId}</h1>
      {readOnly && <p className="muted">You can read this project's flags, not change them.</p>}
      <p>
        <Link href={`/projects/${encodeURIComponent(projectId)}/access`}>Access</Link>: who holds which role in this project
      </p>
      {gated.length > 0 && (
        <p className="notice">
          Change requests are on in{" "}
          {gated.map((c) => `${c.environment} (${c.requiredApprovals} approval${c.requiredApprovals === 1 ? "" : "s"})`).join(", ")}: edits
          there go into a change request.
        </p>
      )}
      <FormError error={config.error} />
      <FeatureGrid projectId={projectId} canEdit={can("DELETE_FEATURE")} />
      {can("CREATE_FEATURE") && (
        <CreateForm
          title="New feature"
          fields={[
            { name: "name", label: "Feature name", required: true },
            { name: "description", label: "Description" },
          ]}
          submitLabel="Create feature"
          refresh={trpc.featureSearch.search.pathFilter()}
          create={(v) => trpcClient.features.create.mutate({ projectId, name: v.name ?? "", description: v.description || null })}
        />
      )}
    </>
  );
}
