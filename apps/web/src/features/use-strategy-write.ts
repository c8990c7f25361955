import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RouterInputs, trpc, trpcClient } from "../trpc.ts";

export type StrategyBody = Omit<RouterInputs["featureStrategies"]["add"], "projectId" | "featureName" | "environment">;
type SortOrders = RouterInputs["featureStrategies"]["setSortOrder"]["sortOrders"];
export type StrategyWrite =
  | { action: "addStrategy"; strategy: StrategyBody }
  | { action: "updateStrategy"; id: string; strategy: StrategyBody }
  | { action: "deleteStrategy"; id: string }
  | { action: "reorderStrategy"; sortOrders: SortOrders };

/** A write's payload as a change request holds it: Unleash's, the direct write's body. */
function changePayload(write: StrategyWrite): unknown[] | Record<string, unknown> {
  switch (write.action) {
    case "addStrategy":
      return write.strategy;
    case "updateStrategy":
      return { id: write.id, ...write.strategy };
    case "deleteStrategy":
      return { id: write.id };
    case "reorderStrategy":
      return write.sortOrders;
  }
}

/**
 * Adds, replaces, removes or reorders strategies in one environment: directly, or where change
 * requests are on (the API refuses the direct write there) as a change in the user's change
 * request, which it returns.
 */
export function useStrategyWrite(where: { projectId: string; featureName: string; environment: string }, changeRequests: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (write: StrategyWrite): Promise<{ request?: { id: number; state: string } }> => {
      if (changeRequests) {
        const { projectId, environment, featureName } = where;
        return {
          request: await trpcClient.changeRequests.addChange.mutate({
            projectId,
            environment,
            feature: featureName,
            action: write.action,
            payload: changePayload(write),
          }),
        };
      }
      if (write.action === "addStrategy") await trpcClient.featureStrategies.add.mutate({ ...where, ...write.strategy });
      else if (write.action === "updateStrategy")
        await trpcClient.featureStrategies.update.mutate({ ...where, strategyId: write.id, ...write.strategy });
      else if (write.action === "deleteStrategy") await trpcClient.featureStrategies.delete.mutate({ ...where, strategyId: write.id });
      else await trpcClient.featureStrategies.setSortOrder.mutate({ ...where, sortOrders: write.sortOrders });
      return {};
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries(trpc.features.get.queryFilter({ projectId: where.projectId, featureName: where.featureName })),
        client.invalidateQueries(trpc.changeRequests.pending.pathFilter()),
      ]),
  });
}
