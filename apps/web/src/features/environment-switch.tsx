import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  enabled: boolean;
  /** Where change requests are on, the API refuses a direct switch: the change goes into the user's request. */
  changeRequests: boolean;
}

/** Turns a feature on or off in one environment, or proposes it where change requests are on. */
export function EnvironmentSwitch({ projectId, featureName, environment, enabled, changeRequests }: Props) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const where = { projectId, featureName, environment };
  const toggle = useMutation({
    mutationFn: (on: boolean) =>
      on ? trpcClient.featureEnvironments.turnOn.mutate(where) : trpcClient.featureEnvironments.turnOff.mutate(where),
    onSuccess: () => client.invalidateQueries(trpc.features.get.queryFilter({ projectId, featureName })),
  });
  const propose = useMutation({
    mutationFn: () =>
      trpcClient.changeRequests.addChange.mutate({
        projectId,
        environment,
        feature: featureName,
        action: "updateEnabled",
        payload: { enabled: !enabled },
      }),
    onSuccess: async (request) => {
      await client.invalidateQueries(trpc.changeRequests.pending.pathFilter());
      navigate(`/projects/${encodeURIComponent(projectId)}/change-requests/${request.id}`);
    },
  });
  if (changeRequests) {
    return (
      <>
        <button type="button" className="secondary" onClick={() => propose.mutate()} disabled={propose.isPending}>
          Propose turning it {enabled ? "off" : "on"}
        </button>
        <FormError error={propose.error} />
      </>
    );
  }
  return (
    <>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          checked={enabled}
          disabled={toggle.isPending}
          onChange={(e) => toggle.mutate(e.target.checked)}
        />
        On in {environment}
      </label>
      <FormError error={toggle.error} />
    </>
  );
}
