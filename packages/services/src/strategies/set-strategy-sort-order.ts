import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "../features/locate-feature-environment.ts";
import type { FeatureStrategy } from "./feature-strategy.ts";
import { listFeatureStrategies } from "./list-feature-strategies.ts";
import { lockLiveFeatures } from "../feature-archive/lock-live-feature.ts";

/** Unleash's setStrategySortOrderSchema: `[{id, sortOrder}]`, each id once; strategies left out keep theirs. */
export const strategySortOrderSchema = z
  .array(z.strictObject({ id: z.string().min(1).max(100), sortOrder: z.int().min(-1_000_000).max(1_000_000) }))
  .max(1000)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (seen.has(entry.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `"${entry.id}" is listed twice` });
      seen.add(entry.id);
    });
  });
type StrategySortOrder = z.output<typeof strategySortOrderSchema>;

/** POST .../strategies/set-sort-order, directly (the four-eyes rule applies); answers the strategies in their new order. */
export async function setStrategySortOrder(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  sortOrders: StrategySortOrder,
): Promise<FeatureStrategy[]> {
  return directEnvironmentWrite(db, by, path, (trx) => storeStrategySortOrder(trx, by, path, sortOrders));
}

/**
 * Gives the listed strategies their sortOrder, which is the order SDKs evaluate them in, and
 * records Unleash's `strategy-order-changed` with the ids in order before and after; a direct
 * write and an applied `reorderStrategy` change both end here. An id that is not a strategy of
 * this feature in this environment is a 400, and nothing is changed.
 */
export async function storeStrategySortOrder(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  input: unknown,
): Promise<FeatureStrategy[]> {
  const sortOrders = parseInput(strategySortOrderSchema, input, "", "The sort order");
  await locateFeatureEnvironment(trx, path);
  // Locked before the strategies are read, so that the order recorded as before is the one replaced.
  await lockLiveFeatures(trx, [path.featureName]);
  const before = await listFeatureStrategies(trx, path);
  const current = new Set(before.map((s) => s.id));
  sortOrders.forEach(({ id }, i) => {
    if (!current.has(id)) {
      const message = `"${id}" is not a strategy of "${path.featureName}" in "${path.environment}"`;
      throw new ValidationError(`${message}.`, [{ path: `${i}.id`, message }]);
    }
  });
  for (const { id, sortOrder } of sortOrders) {
    await trx.updateTable("feature_strategies").set({ sort_order: sortOrder }).where("id", "=", id).execute();
  }
  const after = await listFeatureStrategies(trx, path);
  await appendEvent(trx, by, {
    type: "strategy-order-changed",
    project: path.projectId,
    environment: path.environment,
    featureName: path.featureName,
    data: { strategyIds: after.map((s) => s.id) },
    preData: { strategyIds: before.map((s) => s.id) },
  });
  return after;
}
