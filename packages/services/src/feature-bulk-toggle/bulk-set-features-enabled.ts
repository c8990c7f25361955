import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { listFeatureStrategies } from "../strategies/list-feature-strategies.ts";
import { lockLiveFeatures } from "../feature-archive/lock-live-feature.ts";
import { replaceFeatureStrategy } from "../strategies/write-feature-strategy.ts";

/** Unleash's bulkToggleFeaturesSchema, with its query parameter as a body field (docs/flag-model.md#daily-edits). */
export const bulkToggleSchema = z.strictObject({
  features: z.array(z.string().min(1).max(100)).max(1000),
  shouldActivateDisabledStrategies: z.boolean().optional(),
});
type BulkToggle = z.output<typeof bulkToggleSchema>;

/**
 * POST .../bulk_features/environments/:environment/on|off: switches every listed feature in one
 * transaction, so that all or none change and SDKs hear of it once; a direct write, so the
 * four-eyes rule applies. Answers the features whose state changed.
 */
export async function bulkSetFeaturesEnabled(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; environment: string },
  input: BulkToggle,
  enabled: boolean,
): Promise<string[]> {
  return directEnvironmentWrite(db, by, path, (trx) => storeFeaturesEnabled(trx, by, path, input, enabled));
}

async function requireEnvironmentIn(trx: Transaction<Database>, projectId: string, environment: string): Promise<void> {
  await requireProject(trx, projectId);
  const env = await trx
    .selectFrom("environments as e")
    .leftJoin("project_environments as pe", (join) => join.onRef("pe.environment_name", "=", "e.name").on("pe.project_id", "=", projectId))
    .select("pe.project_id")
    .where("e.name", "=", environment)
    .executeTakeFirst();
  if (!env) throw new NotFoundError(`The environment "${environment}" does not exist.`);
  if (!env.project_id) throw new NotFoundError(`The environment "${environment}" is not enabled in the project "${projectId}".`);
}

async function storeFeaturesEnabled(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; environment: string },
  input: BulkToggle,
  enabled: boolean,
): Promise<string[]> {
  const names = [...new Set(input.features)];
  await requireEnvironmentIn(trx, path.projectId, path.environment);
  if (names.length === 0) return [];
  const found = await trx.selectFrom("features").select(["name", "project_id"]).where("name", "in", names).execute();
  const missing = names.find((name) => found.find((f) => f.name === name)?.project_id !== path.projectId);
  if (missing !== undefined) throw new NotFoundError(`The feature "${missing}" does not exist in the project "${path.projectId}".`);
  await lockLiveFeatures(trx, names);

  if (enabled && input.shouldActivateDisabledStrategies) {
    // As Unleash: turning on also enables the strategies that were disabled, each with its update event.
    for (const featureName of names) {
      const featurePath = { ...path, featureName };
      for (const { id, disabled, ...strategy } of await listFeatureStrategies(trx, featurePath)) {
        if (disabled) await replaceFeatureStrategy(trx, by, featurePath, id, { ...strategy, disabled: false });
      }
    }
  }

  const stored = await trx
    .selectFrom("feature_environments")
    .select(["feature_name", "enabled"])
    .where("feature_name", "in", names)
    .where("environment_name", "=", path.environment)
    .execute();
  const changed = names.filter((name) => (stored.find((s) => s.feature_name === name)?.enabled ?? false) !== enabled);
  if (changed.length === 0) return [];
  // One statement for all of them: one notification at commit.
  await trx
    .insertInto("feature_environments")
    .values(changed.map((feature_name) => ({ feature_name, environment_name: path.environment, enabled })))
    .onConflict((oc) => oc.columns(["feature_name", "environment_name"]).doUpdateSet({ enabled }))
    .execute();
  for (const featureName of changed) {
    await appendEvent(trx, by, {
      type: enabled ? "feature-environment-enabled" : "feature-environment-disabled",
      project: path.projectId,
      environment: path.environment,
      featureName,
      data: { enabled },
    });
  }
  return changed;
}
