import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { applyJsonPatch, type JsonPatchOperation } from "../features/apply-json-patch.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "../features/locate-feature-environment.ts";
import type { FeatureStrategy } from "./feature-strategy.ts";
import { getFeatureStrategy } from "./list-feature-strategies.ts";
import { lockLiveFeatures } from "../feature-archive/lock-live-feature.ts";
import { replaceFeatureStrategy } from "./write-feature-strategy.ts";

const pointer = z.string().max(1000);

/** An RFC 6902 patch of one strategy as GET shows it, e.g. `[{"op": "replace", "path": "/parameters/rollout", "value": "30"}]`. */
export const strategyPatchSchema = z
  .array(
    z.discriminatedUnion("op", [
      z.strictObject({ op: z.enum(["add", "replace", "test"]), path: pointer, value: z.unknown().optional() }),
      z.strictObject({ op: z.literal("remove"), path: pointer }),
      z.strictObject({ op: z.enum(["move", "copy"]), from: pointer, path: pointer }),
    ]),
  )
  .max(100);

/** PATCH .../strategies/:id: a JSON patch of one strategy, directly (the four-eyes rule applies). */
export async function patchFeatureStrategy(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
  patch: JsonPatchOperation[],
): Promise<FeatureStrategy> {
  return directEnvironmentWrite(db, by, path, (trx) => applyFeatureStrategyPatch(trx, by, path, strategyId, patch));
}

/**
 * Applies a patch to the strategy as it is stored now and replaces it with the result, checked
 * exactly as a PUT body (so the event is PUT's `feature-strategy-update`); a direct write and an
 * applied `patchStrategy` change both end here. The id is the path's and cannot be patched.
 */
export async function applyFeatureStrategyPatch(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
  patch: unknown,
): Promise<FeatureStrategy> {
  const operations = parseInput(strategyPatchSchema, patch, "patch", "The patch") as JsonPatchOperation[];
  await locateFeatureEnvironment(trx, path);
  // Locked before it is read, so that the patch applies to the strategy that it replaces.
  await lockLiveFeatures(trx, [path.featureName]);
  const before = await getFeatureStrategy(trx, path, strategyId);
  const patched = applyJsonPatch(before, operations);
  if (patched === null || typeof patched !== "object" || Array.isArray(patched)) {
    throw new ValidationError("The strategy after the patch must be an object.", [
      { path: "patch", message: "the result is not an object" },
    ]);
  }
  const { id, ...strategy } = patched as Record<string, unknown>;
  if (id !== strategyId) {
    throw new ValidationError('The patch cannot change the strategy\'s "id".', [{ path: "id", message: "cannot change" }]);
  }
  return replaceFeatureStrategy(trx, by, path, strategyId, strategy);
}
