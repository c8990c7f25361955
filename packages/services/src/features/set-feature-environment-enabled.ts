import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { appendEvent } from "../events/append-event.ts";
import { lockLiveFeature } from "../feature-archive/lock-live-feature.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "./locate-feature-environment.ts";

/** Turns a feature on or off in one environment, directly: the four-eyes rule applies. */
export async function setFeatureEnvironmentEnabled(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  enabled: boolean,
): Promise<void> {
  await directEnvironmentWrite(db, by, path, (trx) => storeFeatureEnvironmentEnabled(trx, by, path, enabled));
}

/** Stores a feature's on/off state in one environment with its event; a direct write and an applied change both end here. */
export async function storeFeatureEnvironmentEnabled(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  enabled: boolean,
): Promise<void> {
  await locateFeatureEnvironment(trx, path);
  await lockLiveFeature(trx, path.featureName);
  await trx
    .insertInto("feature_environments")
    .values({ feature_name: path.featureName, environment_name: path.environment, enabled })
    .onConflict((oc) => oc.columns(["feature_name", "environment_name"]).doUpdateSet({ enabled }))
    .execute();
  await appendEvent(trx, by, {
    type: enabled ? "feature-environment-enabled" : "feature-environment-disabled",
    project: path.projectId,
    environment: path.environment,
    featureName: path.featureName,
    data: { enabled },
  });
}
