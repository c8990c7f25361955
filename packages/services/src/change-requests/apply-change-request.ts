import type { Database } from "@vexil/db";
import { sql, type Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { isRuleFailure, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { storeFeatureEnvironmentVariants } from "../features/replace-feature-environment-variants.ts";
import { storeFeatureEnvironmentEnabled } from "../features/set-feature-environment-enabled.ts";
import type { ChangeRequestRow } from "./require-change-request.ts";
import { removeFeatureDependency, storeFeatureDependency } from "../dependencies/write-feature-dependency.ts";
import { insertFeatureStrategy, removeFeatureStrategy, replaceFeatureStrategy } from "../strategies/write-feature-strategy.ts";
import { storeFeatureArchived } from "../feature-archive/archive-features.ts";
import { applyFeatureStrategyPatch } from "../strategies/patch-feature-strategy.ts";
import { storeStrategySortOrder } from "../strategies/set-strategy-sort-order.ts";

/**
 * Carries out a request's changes and marks it Applied in the caller's transaction (whose
 * rollback undoes a change that is no longer valid); the one apply path, so that a manual and a
 * scheduled apply (`by` null) write the same changes and the same event. It calls the steps the
 * direct writes call after their four-eyes check: the request itself was reviewed.
 */
export async function applyChangeRequest(trx: Transaction<Database>, by: Principal | null, request: ChangeRequestRow): Promise<void> {
  await applyChanges(trx, by, request);
  await trx.updateTable("change_requests").set({ state: "Applied", updated_at: sql<Date>`now()` }).where("id", "=", request.id).execute();
  await appendEvent(trx, by, {
    type: "change-request-applied",
    project: request.project_id,
    environment: request.environment_name,
    data: { id: request.id, state: "Applied" },
    preData: { id: request.id, state: request.state },
  });
}

// A rule's failure is reported as a validation failure, since its cause is the stored change, not the request that applies it.
async function applyChanges(trx: Transaction<Database>, by: Principal | null, request: ChangeRequestRow): Promise<void> {
  const changes = await trx
    .selectFrom("change_request_changes")
    .selectAll()
    .where("change_request_id", "=", request.id)
    .orderBy("id")
    .execute();
  for (const change of changes) {
    const path = { projectId: request.project_id, featureName: change.feature_name, environment: request.environment_name };
    const payload = change.payload as { enabled?: unknown; variants?: unknown; id?: unknown; feature?: unknown; patch?: unknown };
    try {
      if (change.action === "updateEnabled") {
        if (typeof payload.enabled !== "boolean") throw new ValidationError("updateEnabled needs a boolean `enabled`.");
        await storeFeatureEnvironmentEnabled(trx, by, path, payload.enabled);
      } else if (change.action === "patchVariant") {
        await storeFeatureEnvironmentVariants(trx, by, path, payload.variants);
      } else if (change.action === "addStrategy") {
        await insertFeatureStrategy(trx, by, path, payload);
      } else if (change.action === "updateStrategy") {
        const { id, ...strategy } = payload;
        await replaceFeatureStrategy(trx, by, path, String(id), strategy);
      } else if (change.action === "deleteStrategy") {
        await removeFeatureStrategy(trx, by, path, String(payload.id));
      } else if (change.action === "addDependency") {
        await storeFeatureDependency(trx, by, path, payload);
      } else if (change.action === "deleteDependency") {
        await removeFeatureDependency(trx, by, path, String(payload.feature));
      } else if (change.action === "archiveFeature") {
        await storeFeatureArchived(trx, by, path, request.id);
      } else if (change.action === "reorderStrategy") {
        await storeStrategySortOrder(trx, by, path, change.payload);
      } else if (change.action === "patchStrategy") {
        await applyFeatureStrategyPatch(trx, by, path, String(payload.id), payload.patch);
      } else {
        throw new ValidationError(`Unknown action "${change.action}".`);
      }
    } catch (error) {
      // Anything else (the database lost or slow, a bug) says nothing about the change: it goes up
      // as it is, so that the scheduler retries it and a manual apply answers it as what it is.
      if (!isRuleFailure(error)) throw error;
      const reason = error.message;
      throw new ValidationError(`Change ${change.id} (${change.action} on "${change.feature_name}") can no longer be applied: ${reason}`, [
        { path: `changes.${change.id}`, message: reason },
      ]);
    }
  }
}
