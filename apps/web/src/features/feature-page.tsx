import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { FormError } from "../form-error.tsx";
import { isEditor, useSessionUser } from "../session.ts";
import { trpc } from "../trpc.ts";
import { VariantsEditor } from "./variants-editor.tsx";

/** Proposes turning a feature on or off where change requests are on; the API has no direct switch yet. */
function ProposeToggle(props: { projectId: string; featureName: string; environment: string; enabled: boolean }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const propose = useMutation({
    mutationFn: () =>
      trpc.changeRequests.addChange.mutate({
        projectId: props.projectId,
        environment: props.environment,
        feature: props.featureName,
        action: "updateEnabled",
        payload: { enabled: !props.enabled },
      }),
    onSuccess: async (request) => {
      await client.invalidateQueries({ queryKey: ["pending"] });
      navigate(`/projects/${encodeURIComponent(props.projectId)}/change-requests/${request.id}`);
    },
  });
  return (
    <>
      <button type="button" className="secondary" onClick={() => propose.mutate()} disabled={propose.isPending}>
        Propose turning it {props.enabled ? "off" : "on"}
      </button>
      <FormError error={propose.error} />
    </>
  );
}

/** A feature's environments: whether it is on, and its variants, editable by Editors and Admins. */
export function FeaturePage({ projectId, featureName }: { projectId: string; featureName: string }) {
  const user = useSessionUser();
  const feature = useQuery({ queryKey: ["feature", projectId, featureName], queryFn: () => trpc.features.get.query({ projectId, featureName }) });
  const config = useQuery({ queryKey: ["cr-config", projectId], queryFn: () => trpc.changeRequests.config.query({ projectId }) });
  const gate = (environment: string) => {
    const c = config.data?.find((x) => x.environment === environment && x.changeRequestsEnabled);
    return c ? { requiredApprovals: c.requiredApprovals } : null;
  };
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / <Link href={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> / {featureName}
      </p>
      <h1>Feature {featureName}</h1>
      <FormError error={feature.error ?? config.error} />
      {feature.data && <p>{feature.data.description ?? <span className="muted">No description.</span>}</p>}
      {feature.data && config.data &&
        feature.data.environments.map((env) => (
          <section key={env.name} className="card" aria-labelledby={`env-${env.name}`}>
            <h2 id={`env-${env.name}`}>
              {env.name} <span className={env.enabled ? "pill on" : "pill off"}>{env.enabled ? "on" : "off"}</span>
            </h2>
            {isEditor(user) && gate(env.name) && <ProposeToggle projectId={projectId} featureName={featureName} environment={env.name} enabled={env.enabled} />}
            {isEditor(user) ? (
              <VariantsEditor
                key={JSON.stringify(env.variants)}
                projectId={projectId}
                featureName={featureName}
                environment={env.name}
                variants={env.variants}
                changeRequests={gate(env.name)}
              />
            ) : (
              <ul>
                {env.variants.map((v) => (
                  <li key={v.name}>
                    {v.name}: {v.weight}‰ ({v.weightType})
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
    </>
  );
}
