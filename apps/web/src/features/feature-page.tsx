import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { DependenciesEditor } from "../dependencies/dependencies-editor.tsx";
import { FeatureDailyLife } from "../feature-lifecycle/feature-daily-life.tsx";
import { FormError } from "../form-error.tsx";
import { useProjectPermissions } from "../project-access/use-project-permissions.ts";
import { trpc } from "../trpc.ts";
import { LazyUsageSection } from "../usage/lazy-usage-section.tsx";
import { EnvironmentSwitch } from "./environment-switch.tsx";
import { NewStrategyWithOptions, StrategyActions } from "./strategy-actions.tsx";
import { StrategyForm } from "./strategy-form.tsx";
import { StrategyList } from "./strategy-list.tsx";
import { VariantsEditor } from "./variants-editor.tsx";

/** A feature's environments: whether it is on, and its variants, editable by whoever the server says may (in this project). */
export function FeaturePage({ projectId, featureName }: { projectId: string; featureName: string }) {
  const { can, readOnly } = useProjectPermissions(projectId);
  const feature = useQuery(trpc.features.get.queryOptions({ projectId, featureName }));
  const config = useQuery(trpc.changeRequests.config.queryOptions({ projectId }));
  const segments = useQuery(trpc.segments.list.queryOptions());
  const segmentNames = new Map((segments.data?.segments ?? []).map((s) => [s.id, s.name]));
  const gate = (environment: string) => {
    const c = config.data?.find((x) => x.environment === environment && x.changeRequestsEnabled);
    return c ? { requiredApprovals: c.requiredApprovals } : null;
  };
  const where = (environment: string) => ({ projectId, featureName, environment });
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / <Link href={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> /{" "}
        {featureName}
      </p>
      <h1>Feature {featureName}</h1>
      {readOnly && <p className="muted">You can read this project's flags, not change them.</p>}
      <FormError error={feature.error ?? config.error} />
      {feature.data && <p>{feature.data.description ?? <span className="muted">No description.</span>}</p>}
      {feature.data && (
        <FeatureDailyLife
          projectId={projectId}
          featureName={featureName}
          type={feature.data.type}
          stale={feature.data.stale}
          canEdit={can("UPDATE_FEATURE")}
        />
      )}
      {feature.data && config.data && (
        <DependenciesEditor
          projectId={projectId}
          featureName={featureName}
          dependencies={feature.data.dependencies}
          canEdit={can("UPDATE_FEATURE_DEPENDENCY")}
          changeRequestEnvironment={
            config.data
              .filter((c) => c.changeRequestsEnabled)
              .map((c) => c.environment)
              .sort()[0] ?? null
          }
        />
      )}
      {feature.data &&
        config.data &&
        feature.data.environments.map((env) => (
          <section key={env.name} className="card" aria-labelledby={`env-${env.name}`}>
            <h2 id={`env-${env.name}`}>
              {env.name} <span className={env.enabled ? "pill on" : "pill off"}>{env.enabled ? "on" : "off"}</span>
            </h2>
            {can("UPDATE_FEATURE_ENVIRONMENT") && (
              <EnvironmentSwitch
                projectId={projectId}
                featureName={featureName}
                environment={env.name}
                enabled={env.enabled}
                changeRequests={gate(env.name) !== null}
              />
            )}
            <h3>Strategies</h3>
            <StrategyList
              environment={env.name}
              strategies={env.strategies}
              segmentNames={segmentNames}
              actions={
                can("UPDATE_FEATURE_STRATEGY")
                  ? (strategy) => (
                      <StrategyActions
                        {...where(env.name)}
                        changeRequests={gate(env.name) !== null}
                        sorted={[...env.strategies].sort((a, b) => a.sortOrder - b.sortOrder)}
                        strategy={strategy}
                      />
                    )
                  : undefined
              }
            />
            {can("CREATE_FEATURE_STRATEGY") && (
              <>
                <StrategyForm {...where(env.name)} changeRequests={gate(env.name) !== null} />
                <NewStrategyWithOptions {...where(env.name)} changeRequests={gate(env.name) !== null} />
              </>
            )}
            <h3>Variants</h3>
            {can("UPDATE_FEATURE_ENVIRONMENT_VARIANTS") ? (
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
      {feature.data && <LazyUsageSection featureName={featureName} />}
    </>
  );
}
