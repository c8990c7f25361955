import { useMutation, useQueryClient } from "@tanstack/react-query";
import { trpc, type RouterInputs } from "../trpc.ts";

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
          request: await trpc.changeRequests.addChange.mutate({
            projectId,
            environment,
            feature: featureName,
            action: write.action,
            payload,
          }),
        };
      }
      if (write.action === "addStrategy") await trpc.featureStrategies.add.mutate({ ...where, ...write.strategy });
      else await trpc.featureStrategies.delete.mutate({ ...where, strategyId: write.id });
      return {};
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["feature", where.projectId, where.featureName] }),
        client.invalidateQueries({ queryKey: ["pending"] }),
      ]),
  });
}
