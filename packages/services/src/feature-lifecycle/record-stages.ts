import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";

/** A new flag starts in `initial`, entered when it was created; its command calls this in its transaction. */
export async function recordInitialStage(trx: Transaction<Database>, featureName: string, createdAt: Date): Promise<void> {
  await trx
    .insertInto("feature_lifecycles")
    .values({ feature_name: featureName, stage: "initial", entered_at: createdAt })
    .onConflict((oc) => oc.columns(["feature_name", "stage"]).doNothing())
    .execute();
}

/**
 * A revived flag starts over in `initial`, as Unleash does it: its earlier stages are forgotten.
 * For the command that revives an archived flag, in its transaction.
 */
export async function restartFeatureLifecycles(trx: Transaction<Database>, featureNames: string[]): Promise<void> {
  if (featureNames.length === 0) return;
  // Two statements for any number of flags: a bulk revive of thousands stays one round trip each.
  await trx.deleteFrom("feature_lifecycles").where("feature_name", "in", featureNames).execute();
  await trx
    .insertInto("feature_lifecycles")
    .values(featureNames.map((feature_name) => ({ feature_name, stage: "initial" })))
    .execute();
}
