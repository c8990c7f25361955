import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import { lockLiveFeature } from "../feature-archive/lock-live-feature.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "./locate-feature-environment.ts";
import { type Variant, variantsFromJson } from "./variant.ts";

/**
 * The one way variants are written: checks the path, computes the new variants from the current
 * ones, stores them and records the event, all in the caller's transaction. `change` may throw;
 * nothing has been written by then.
 */
export async function updateFeatureEnvironmentVariants(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  change: (before: Variant[]) => Variant[],
): Promise<Variant[]> {
  await locateFeatureEnvironment(trx, path);
  // Writers of one feature queue on its row, so that a PATCH always applies to the variants it
  // read. NO KEY UPDATE leaves foreign-key checks against the row unblocked. An archived flag takes no writes.
  await lockLiveFeature(trx, path.featureName);
  const current = await trx
    .selectFrom("feature_environments")
    .select("variants")
    .where("feature_name", "=", path.featureName)
    .where("environment_name", "=", path.environment)
    .executeTakeFirst();
  const before = variantsFromJson(current?.variants);
  const after = change(before);

  await trx
    .insertInto("feature_environments")
    .values({ feature_name: path.featureName, environment_name: path.environment, variants: JSON.stringify(after) })
    .onConflict((oc) => oc.columns(["feature_name", "environment_name"]).doUpdateSet((eb) => ({ variants: eb.ref("excluded.variants") })))
    .execute();
  await appendEvent(trx, by, {
    type: "feature-environment-variants-updated",
    project: path.projectId,
    environment: path.environment,
    featureName: path.featureName,
    data: after,
    preData: before,
  });
  return after;
}
