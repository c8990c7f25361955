import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RouterInputs, trpc, trpcClient } from "../trpc.ts";

export type StrategyBody = Omit<RouterInputs["featureStrategies"]["add"], "projectId" | "featureName" | "environment">;
export type StrategyWrite = { action: "addStrategy"; strategy: StrategyBody } | { action: "deleteStrategy"; id: string };

/**
 * Adds or removes a strategy in one environment: directly, or where change requests are on (the
 * API refuses the direct write there) as a change in the user's change request, which it returns.
 */
export function useStrategyWrite(where: { projectId: string; featureName: string; environment: string }, changeRequests: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (write: StrategyWrite): Promise<{ request?: { id: number; state: string } }> => {
      const payload = write.action === "addStrategy" ? write.strategy : { id: write.id };
      if (changeRequests) {
        const { projectId, environment, featureName } = where;
        return {
          request: await trpcClient.changeRequests.addChange.mutate({
            projectId,
            environment,
            feature: featureName,
            action: write.action,
            payload,
          }),
        };
      }
      if (write.action === "addStrategy") await trpcClient.featureStrategies.add.mutate({ ...where, ...write.strategy });
      else await trpcClient.featureStrategies.delete.mutate({ ...where, strategyId: write.id });
      return {};
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries(trpc.features.get.queryFilter({ projectId: where.projectId, featureName: where.featureName })),
        client.invalidateQueries(trpc.changeRequests.pending.pathFilter()),
      ]),
  });
}
